import type { Action, PutActionRequest } from '../../shared/schemas/engine-actions.ts';
import type { ActionDefinition } from '../brain/actions.ts';
import type { ActionRow } from '../store/actions.ts';

/**
 * The API's view of an action (its inputs as JSON Schema) and the brain's (`ActionDefinition`:
 * inputs with patterns and questions) are one definition: a PUT is turned into the brain's shape,
 * which is stored, and every read gives it back as JSON Schema. Actions defined by the brain's
 * shape directly (the demo's seed) read the same way.
 */

/** What the AI asks for a missing input when the action does not say: "What is the order number?". */
export const defaultAsk = (input: string): string => `What is the ${input.replace(/_/g, ' ')}?`;

/** The words the retrieval brain listens for when the action names none: its name's words of three letters or more. */
export function defaultTriggers(name: string): string[][] {
  const words = name.split('_').filter((word) => word.length >= 3);
  return [words.length > 0 ? words : [name.replace(/_/g, '')]];
}

/** The brain's definition of the action `name` as a PUT describes it. */
export function definitionOf(name: string, request: PutActionRequest): ActionDefinition {
  const required = new Set(request.parameters.required ?? []);
  return {
    name,
    description: request.description,
    triggers: request.triggers ?? defaultTriggers(name),
    inputs: Object.entries(request.parameters.properties).map(([input, parameter]) => ({
      name: input,
      description: parameter.description,
      pattern: parameter.pattern,
      required: required.has(input),
      ask: parameter['x-ask'] ?? defaultAsk(input),
    })),
    ...(request.reply ? { reply: request.reply } : {}),
    ...(request.card ? { card: request.card } : {}),
  };
}

/** An action as the API shows it. */
export function actionView(row: ActionRow): Action {
  const { definition } = row;
  return {
    name: row.name,
    description: definition.description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(
        definition.inputs.map((input) => [
          input.name,
          { type: 'string' as const, description: input.description, pattern: input.pattern, 'x-ask': input.ask },
        ]),
      ),
      required: definition.inputs.filter((input) => input.required).map((input) => input.name),
    },
    triggers: definition.triggers,
    reply: definition.reply ?? null,
    card: definition.card ?? null,
    url: row.url,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
