// The part of the coherentpdf (cpdf compiled to JS) API that docwasm uses.
declare module 'coherentpdf' {
  type Pdf = number;
  type Range = number[];
  export function version(): string;
  export function fromMemory(data: Uint8Array, userPassword: string): Pdf;
  export function isEncrypted(pdf: Pdf): boolean;
  export function pages(pdf: Pdf): number;
  export function range(first: number, last: number): Range;
  export function merge(pdfs: Pdf[], retainNumbering: boolean, removeDuplicateFonts: boolean): Pdf;
  export function selectPages(pdf: Pdf, range: Range): Pdf;
  export function toMemory(pdf: Pdf, linearize: boolean, makeId: boolean): Uint8Array;
  export function toMemoryEncrypted(
    pdf: Pdf,
    method: number,
    permissions: number[],
    ownerPassword: string,
    userPassword: string,
    linearize: boolean,
    makeId: boolean,
  ): Uint8Array;
  export function deletePdf(pdf: Pdf): void;
  export const aes128bittrue: number;
  export const aes256bitisotrue: number;
}
