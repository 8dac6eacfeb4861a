/** The part of `@rails/actioncable` (which ships no types) the tests drive. */
declare module '@rails/actioncable' {
  export interface Subscription {
    identifier: string;
    perform(action: string, data?: object): boolean;
    unsubscribe(): void;
  }
  export interface Consumer {
    subscriptions: {
      create(
        params: object,
        callbacks: { connected?(): void; rejected?(): void; disconnected?(): void; received?(data: any): void },
      ): Subscription;
    };
    connect(): void;
    disconnect(): void;
  }
  export const adapters: { WebSocket: unknown; logger: unknown };
  export function createConsumer(url: string): Consumer;
}
