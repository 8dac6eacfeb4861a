import { z } from 'zod';

/**
 * The payloads of person calls (issue 30): the widget's `/widget` and the console's `/desk`
 * sockets carry a call's signalling (WebRTC offer, answer and ICE candidates) through the BFF,
 * which relays them between exactly the customer's socket and the person's who accepted. One zod
 * source: the BFF validates every client payload with these; the event maps type both sides.
 */

const CallId = z.string().min(1).max(100);

/** `call:start` (widget): the customer calls the people of a conversation's inbox. */
export const CallStartCommand = z.strictObject({ conversation_id: z.string().max(100) });
export type CallStartCommand = z.infer<typeof CallStartCommand>;

/** `call:accept`, `call:decline`, `call:hang_up`: a command on one call. */
export const CallCommand = z.strictObject({ call_id: CallId });
export type CallCommand = z.infer<typeof CallCommand>;

/** One step of WebRTC's negotiation: a session description, or an ICE candidate (RTCIceCandidateInit). */
export const CallSignalData = z.discriminatedUnion('type', [
  z.strictObject({ type: z.enum(['offer', 'answer']), sdp: z.string().max(20_000) }),
  z.strictObject({
    type: z.literal('candidate'),
    candidate: z.strictObject({
      candidate: z.string().max(2_000),
      sdpMid: z.string().max(100).nullable().optional(),
      sdpMLineIndex: z.number().int().min(0).max(100).nullable().optional(),
      usernameFragment: z.string().max(256).nullable().optional(),
    }),
  }),
]);
export type CallSignalData = z.infer<typeof CallSignalData>;

/** `call:signal` (both sides): a step of the negotiation for the other side of the call. */
export const CallSignalCommand = z.strictObject({ call_id: CallId, signal: CallSignalData });
export type CallSignalCommand = z.infer<typeof CallSignalCommand>;

/** What a side needs to connect: the call, and the STUN/TURN servers (`ICE_SERVERS`; none on one machine or LAN). */
export interface CallJoined {
  call_id: string;
  ice_servers: string[];
  /** `ai`: the AI takes the call, over the BFF's stream (shared/schemas/ai-call.ts); absent: people are rung. */
  with?: 'ai';
}

/** `call:ringing` (desk): a customer calls the people of a conversation of the inbox. */
export interface CallRinging {
  call_id: string;
  conversation_id: number;
  customer_name: string | null;
}

/** `call:accepted` (widget): a person took the call; the customer's side makes the offer now. */
export interface CallAccepted {
  call_id: string;
  person_name: string;
}

/** `call:ended` (both): the call is over (or nobody took it); `duration_s` counts from the answer. */
export interface CallEnded {
  call_id: string;
  duration_s: number;
  ended_by: 'customer' | 'person' | 'network';
  /** Nobody took the call (declined by everyone, or it rang out). */
  missed: boolean;
  /** Why the BFF ended a call neither side hung up: nobody took it, it reached CALL_MAX_S, or a node holding one side stopped. */
  reason?: CallEndReason;
}

/** Why the BFF ended a call itself. */
export type CallEndReason = 'rang_out' | 'too_long' | 'node_gone';
