// The PDF metadata fields docwasm sets (pdf/metadata): the schema and the engines share them.

export const METADATA_FIELDS = ['title', 'author', 'subject', 'keywords', 'creator'] as const;
export type MetadataField = (typeof METADATA_FIELDS)[number];
/** The fields to set; an empty string clears the field, an absent one is kept. */
export type MetadataUpdate = Partial<Record<MetadataField, string>>;
