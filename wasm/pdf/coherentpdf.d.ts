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
  export function decryptPdf(pdf: Pdf, userPassword: string): void;
  export function decryptPdfOwner(pdf: Pdf, ownerPassword: string): void;
  export function rotateBy(pdf: Pdf, range: Range, degrees: number): void;
  export function getMajorVersion(pdf: Pdf): number;
  /** The minor version. */
  export function getVersion(pdf: Pdf): number;
  /** "" when absent. */
  export function getTitle(pdf: Pdf): string;
  export function getAuthor(pdf: Pdf): string;
  export function getSubject(pdf: Pdf): string;
  export function getKeywords(pdf: Pdf): string;
  export function getCreator(pdf: Pdf): string;
  export function getProducer(pdf: Pdf): string;
  export function getCreationDate(pdf: Pdf): string;
  export function getModificationDate(pdf: Pdf): string;
  export function getPageRotation(pdf: Pdf, page: number): number;
  export function hasBox(pdf: Pdf, page: number, box: string): boolean;
  /** [minX, maxX, minY, maxY]. */
  export function getMediaBox(pdf: Pdf, page: number): number[];
  export function getCropBox(pdf: Pdf, page: number): number[];
  export const aes128bittrue: number;
  export const aes256bitisotrue: number;
}
