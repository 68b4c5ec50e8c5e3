// PDF dates ("D:20240131120000+01'00'") to ISO 8601 and back.

const PDF_DATE = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?/;

/** ISO 8601 for a PDF date; the string as stored when it does not parse. */
export function pdfDateToIso(value: string): string {
  const match = PDF_DATE.exec(value.trim());
  if (!match) return value;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', zulu, sign, tzHour, tzMinute = '00'] = match;
  const zone = zulu || !sign ? 'Z' : `${sign}${tzHour}:${tzMinute}`;
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`;
  return Number.isNaN(Date.parse(iso)) ? value : iso;
}

export function toPdfDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `D:${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
}
