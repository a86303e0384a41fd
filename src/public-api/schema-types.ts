// A JSON Schema (the subset zod writes) as the TypeScript type it describes: the typed client's types
// (scripts/api-client/generate.ts) and the docs page (routes.ts) both show schemas this way.

type Schema = Record<string, unknown>;

export function literal(value: unknown): string {
  return JSON.stringify(value);
}

export function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name);
}

/** The TypeScript type a JSON Schema (the subset zod writes) describes. */
export function typeOf(schema: Schema | boolean | undefined): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) return union.map((s) => typeOf(s)).join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => typeOf({ ...schema, type: t as string })).join(' | ');
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${typeOf(schema.items as Schema | undefined)}>`;
    case 'object':
      return objectType(schema);
    default:
      return 'unknown';
  }
}

function objectType(schema: Schema): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(
    ([name, property]) => `${propertyName(name)}${required.has(name) ? '' : '?'}: ${typeOf(property)};`,
  );
  const extra = schema.additionalProperties;
  if (extra !== false && extra !== undefined) fields.push(`[key: string]: ${typeOf(extra as Schema)};`);
  return `{ ${fields.join(' ')} }`;
}
