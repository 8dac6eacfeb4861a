import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/**
 * The records of an OpenAPI document as components: a zod schema named with `.meta({ id: 'Inbox' })`
 * is written once under `components.schemas` and referred to by `$ref` wherever it is used, as
 * readers and code generators expect (`Account`, `Inbox`, `Conversation`…), instead of inline.
 *
 * A record may read differently as a request (`io: 'input'`: defaults optional) and as an answer;
 * its request form is gathered as `<id>Input` and folded into `<id>` by `fold` when they are the same.
 */
export class SchemaComponents {
  readonly #schemas = new Map<string, JsonSchema>();

  /**
   * The JSON Schema of `schema`, with every named record in it a `$ref` to its component.
   *
   * @example components.describe(InboxList, 'output') // { properties: { payload: { items: { $ref: '#/components/schemas/Inbox' } } } }
   */
  describe(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $schema: _ignored,
      $defs: defs = {},
      ...rest
    } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const name = (id: string) => (io === 'input' ? `${id}Input` : id);
    const relink = (value: JsonSchema) =>
      JSON.parse(
        JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_match, id: string) => `"${REF_PREFIX}${name(id)}"`),
      ) as JsonSchema;
    for (const [id, definition] of Object.entries(defs)) this.#schemas.set(name(id), relink(definition));
    return relink(rest);
  }

  /**
   * `document` with its components added beside `fixed`: each `<id>Input` that reads exactly as
   * `<id>` is dropped, and its references point at `<id>`.
   */
  fold<D extends JsonSchema>(document: D, fixed: Record<string, JsonSchema>): D & { components: JsonSchema } {
    const same = [...this.#schemas.keys()].filter((name) => {
      const output = name.endsWith('Input') ? this.#schemas.get(name.slice(0, -'Input'.length)) : undefined;
      return output !== undefined && JSON.stringify(output) === JSON.stringify(this.#schemas.get(name));
    });
    const schemas = Object.fromEntries(
      [...this.#schemas].filter(([name]) => !same.includes(name)).sort(([a], [b]) => a.localeCompare(b)),
    );
    const withComponents = {
      ...document,
      components: { ...(document['components'] as JsonSchema), schemas: { ...fixed, ...schemas } },
    };
    let text = JSON.stringify(withComponents);
    for (const name of same)
      text = text.replaceAll(`"${REF_PREFIX}${name}"`, `"${REF_PREFIX}${name.slice(0, -'Input'.length)}"`);
    return JSON.parse(text) as D & { components: JsonSchema };
  }
}
