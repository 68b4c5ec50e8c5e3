// Command-line options derived from an operation's zod object schema: the inputs (`files` or
// `input`) are positional, every other field is a kebab-case option. Values are only given
// their JSON type here; the schema itself validates them, as for an HTTP body. A field holding
// objects (a pipeline's `steps`, redact's `areas`, fill's `values`) takes JSON: written inline
// (`--areas '{"page":1,…}'`) or as the path of a JSON file (`--steps steps.json`); a list of
// objects may be given as one array or item by item, repeating the option.

import { z } from 'zod';

export type FieldKind = 'string' | 'number' | 'boolean' | 'list' | 'json';

export interface FieldOption {
  /** The request field (camelCase). */
  field: string;
  /** The option name without dashes (kebab-case). */
  flag: string;
  kind: FieldKind;
  required: boolean;
  description: string | undefined;
  /** The allowed values of an enum field. */
  choices: readonly string[] | undefined;
  defaultValue: unknown;
  /** A list: the option may be repeated (a `json` list's values are its items, or arrays of them). */
  many: boolean;
}

export interface CommandShape {
  /** The field the positional arguments fill, if any. */
  positional: { field: string; many: boolean; description: string | undefined } | undefined;
  options: FieldOption[];
}

/** Fields whose values are lists of inputs, taken from the positional arguments in this order of preference. */
const POSITIONAL_FIELDS = ['files', 'input'] as const;

export function commandShape(schema: z.ZodType): CommandShape {
  if (!(schema instanceof z.ZodObject)) throw new Error('An operation input must be a zod object schema');
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([field, fieldSchema]) => describeField(field, fieldSchema));
  const positionalField = POSITIONAL_FIELDS.find((name) => fields.some((f) => f.field === name));
  const positional = fields.find((f) => f.field === positionalField);
  return {
    positional: positional && { field: positional.field, many: positional.kind === 'list', description: positional.description },
    options: fields.filter((f) => f !== positional),
  };
}

/** A `format` enum beside an `output` may be left out: the output's extension names it (`convert in.docx -o out.pdf`). */
export function formatFollowsOutput(shape: CommandShape): boolean {
  return shape.options.some((o) => o.field === 'format' && o.choices !== undefined) && shape.options.some((o) => o.field === 'output');
}

export const kebabCase = (field: string): string => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function describeField(field: string, outer: z.ZodType): FieldOption {
  let required = true;
  let defaultValue: unknown;
  let description = outer.description;
  let schema = outer;
  // Wrappers only change whether and how a value is given; the option's type is the inner one.
  for (;;) {
    if (schema instanceof z.ZodOptional) required = false;
    else if (schema instanceof z.ZodDefault) {
      required = false;
      defaultValue = schema._zod.def.defaultValue;
    } else if (!(schema instanceof z.ZodNullable || schema instanceof z.ZodPipe)) break;
    schema = schema instanceof z.ZodPipe ? (schema.in as z.ZodType) : (schema.unwrap() as z.ZodType);
    description ??= schema.description;
  }
  // A list is described by its items (`files`: each an absolute path, or ...).
  if (schema instanceof z.ZodArray) description ??= (schema.element as z.ZodType).description;
  const many = schema instanceof z.ZodArray;
  return {
    field,
    flag: kebabCase(field),
    kind: kindOf(schema),
    required,
    description,
    choices: schema instanceof z.ZodEnum ? (schema.options as string[]) : undefined,
    defaultValue,
    many,
  };
}

function kindOf(schema: z.ZodType): FieldKind {
  if (schema instanceof z.ZodNumber) return 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (isStructured(schema)) return 'json';
  if (schema instanceof z.ZodArray) return isStructured(schema.element as z.ZodType) ? 'json' : 'list';
  return 'string';
}

const isStructured = (schema: z.ZodType): boolean => schema instanceof z.ZodObject || schema instanceof z.ZodRecord;

/** A number when the text is one; otherwise the text, for the schema to reject with its own message. */
export function numberOrText(raw: string): number | string {
  const value = Number(raw);
  return raw.trim() !== '' && Number.isFinite(value) ? value : raw;
}
