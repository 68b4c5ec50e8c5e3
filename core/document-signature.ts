// A signature a document carries, as read and checked by the engine of its format (CONTRACT v0.5,
// `data.signatures`): whether the signed files and the value still verify, not whom to trust.

export interface DocumentSignature {
  /** The signature's ID in the document's list of signatures. */
  id: string;
  /** The signer certificate's subject (its common name), when the value carries a certificate. */
  signer: string | null;
  /** The seal's name (an electronic seal), else null. */
  sealName: string | null;
  /** When it was signed, as YYYY-MM-DDTHH:MM:SS (the signer's local time), or as written. */
  signedAt: string | null;
  /** 'SM2-with-SM3', 'RSA-SHA256', … (or the OID the document names). */
  algorithm: string;
  valid: boolean;
  /** What is wrong, when not valid: which file changed or went missing, or that the value does not verify. */
  problem?: string;
  /** Whether the signer chains to a trusted root: not judged. */
  trusted: null;
}
