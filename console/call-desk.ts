import { io, type Socket } from 'socket.io-client';
import { openCallPeer, type CallPeer } from '../shared/call-peer.ts';
import { DESK_NAMESPACE, type DeskClientEvents, type DeskServerEvents } from '../shared/desk-socket-events.ts';
import type { CallRinging, CallSignalData } from '../shared/schemas/call.ts';

export interface CallDeskState {
  /** Calls ringing on this console, oldest first. */
  ringing: CallRinging[];
  /** The call this person took: its conversation and when it was answered. */
  active: { call_id: string; conversation_id: number; since: number } | undefined;
  muted: boolean;
  error: string | undefined;
}

const ACK_MS = 10_000;

/**
 * The person's side of calls (issue 30): its own `/desk` socket hears the calls that ring for the
 * inboxes this person answers; Accept takes one (the BFF refuses a call already taken) and answers
 * the customer's offer with the microphone's audio, browser to browser (shared/call-peer.ts).
 */
export class CallDesk {
  state: CallDeskState = { ringing: [], active: undefined, muted: false, error: undefined };
  readonly #socket: Socket<DeskServerEvents, DeskClientEvents>;
  readonly #listeners = new Set<() => void>();
  #peer: CallPeer | undefined;
  /** Steps of the negotiation that came before the microphone was open. */
  #early: CallSignalData[] = [];

  constructor(token: string, accountId: number) {
    this.#socket = io(DESK_NAMESPACE, { auth: { token, account_id: accountId }, transports: ['websocket'] });
    this.#socket.on('call:ringing', (ringing) => this.#set({ ringing: [...this.state.ringing, ringing] }));
    this.#socket.on('call:ended', ({ call_id }) => {
      this.#set({ ringing: this.state.ringing.filter((ring) => ring.call_id !== call_id) });
      if (this.state.active?.call_id === call_id) this.#finish();
    });
    this.#socket.on('call:signalled', ({ call_id, signal }) => {
      if (call_id !== this.state.active?.call_id) return;
      if (this.#peer) void this.#peer.take(signal);
      else this.#early.push(signal);
    });
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(patch: Partial<CallDeskState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  /** Takes the call; gives its conversation, or undefined when it could not be taken (the reason is in `error`). */
  async accept(callId: string, audio: HTMLAudioElement): Promise<number | undefined> {
    this.#set({ ringing: this.state.ringing.filter((ring) => ring.call_id !== callId), error: undefined });
    const taken = await this.#socket.timeout(ACK_MS).emitWithAck('call:accept', { call_id: callId });
    if (!taken.ok) {
      this.#set({ error: taken.error.message });
      return undefined;
    }
    const active = { call_id: callId, conversation_id: taken.data.conversation_id, since: Date.now() };
    this.#set({ active, muted: false });
    const send = (signal: CallSignalData) => this.#socket.emit('call:signal', { call_id: callId, signal });
    try {
      this.#peer = await openCallPeer(taken.data.ice_servers, send, audio);
      for (const signal of this.#early.splice(0)) await this.#peer.take(signal);
    } catch {
      this.#set({ error: 'The microphone could not be opened: the call was ended.' });
      this.hangUp();
    }
    return active.conversation_id;
  }

  decline(callId: string): void {
    this.#set({ ringing: this.state.ringing.filter((ring) => ring.call_id !== callId) });
    this.#socket.emit('call:decline', { call_id: callId });
  }

  hangUp(): void {
    const active = this.state.active;
    if (active) this.#socket.emit('call:hang_up', { call_id: active.call_id });
    this.#finish();
  }

  mute(muted: boolean): void {
    this.#peer?.mute(muted);
    this.#set({ muted });
  }

  #finish(): void {
    this.#peer?.close();
    this.#peer = undefined;
    this.#early = [];
    this.#set({ active: undefined, muted: false });
  }

  close(): void {
    this.hangUp();
    this.#socket.close();
  }
}
