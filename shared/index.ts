/**
 * The browser-safe door of `shared/`: the protocol that the engine, the BFF and the widget all speak.
 * Node-only helpers live behind `shared/server/index.ts`.
 */
export * from './ids.ts';
export * from './schemas/origin.ts';
export * from './schemas/attachment.ts';
export * from './environment.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './schemas/engine.ts';
export * from './schemas/engine-agent.ts';
export * from './schemas/engine-customers.ts';
export * from './schemas/engine-media.ts';
export * from './schemas/voice-stream.ts';
export * from './schemas/engine-reports.ts';
export * from './schemas/widget.ts';
export * from './schemas/webhooks.ts';
export * from './schemas/socket.ts';
export * from './schemas/call.ts';
export * from './schemas/ai-call.ts';
export * from './ai-call-stream.ts';
export * from './socket-events.ts';
export * from './webhook-signature.ts';
export * from './contrast.ts';
export * from './schemas/desk-socket.ts';
export * from './desk-socket-events.ts';
export * from './handshake.ts';
