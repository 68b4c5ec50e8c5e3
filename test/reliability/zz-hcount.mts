import { hostileCorpus, random, type Kind } from './hostile-corpus.js';
const N: Record<Kind, number> = { pdf: 20, image: 5, document: 3 };
async function main() {
for (const count of [Number(process.argv[2])]) {
  const corpus = await hostileCorpus(count);
  const rand = random(42);
  const kinds = Object.keys(N) as Kind[];
  const routes = new Set<string>();
  corpus.forEach((f, i) => {
    routes.add(`${f.kind}:${i % N[f.kind]}`);
    const otherKind = kinds.filter((k) => k !== f.kind)[Math.floor(rand() * (kinds.length - 1))] as Kind;
    routes.add(`${otherKind}:${Math.floor(rand() * N[otherKind])}`);
  });
  const muts: Record<string, number> = {};
  for (const f of corpus) muts[f.mutation] = (muts[f.mutation] ?? 0) + 1;
  const kindsCount: Record<string, number> = {};
  for (const f of corpus) kindsCount[f.kind] = (kindsCount[f.kind] ?? 0) + 1;
  console.log(count, corpus.length, routes.size, JSON.stringify(muts), JSON.stringify(kindsCount));
}
}
main().catch((e) => console.log('ERR', e));
