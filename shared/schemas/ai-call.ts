import { z } from 'zod';

/** The first message on the widget's stream of a call with the AI (shared/ai-call-stream.ts): who the customer is. */
export const AiCallJoin = z.strictObject({ type: z.literal('join'), token: z.string().min(1).max(4_000) });
export type AiCallJoin = z.infer<typeof AiCallJoin>;
