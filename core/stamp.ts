// Where pdf/stamp puts its mark: the schema and the engines share the names.

export const STAMP_POSITIONS = ['center', 'top-left', 'top', 'top-right', 'left', 'right', 'bottom-left', 'bottom', 'bottom-right'] as const;
export type StampPosition = (typeof STAMP_POSITIONS)[number];
