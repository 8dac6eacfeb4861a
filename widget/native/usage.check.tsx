import { useRef } from 'react';
import { ParleyChat, type ParleyChatHandle } from './index.ts';

/**
 * Never run: compiled by `npm run typecheck` (widget/native/tsconfig.json) to hold the component's
 * public types to what an app writes. Each `@ts-expect-error` is a mistake the types must catch.
 */
export function SupportScreen({ token, setBadge }: { token: string | undefined; setBadge: (count: number) => void }) {
  const chat = useRef<ParleyChatHandle>(null);
  chat.current?.command('setLocale', 'fr');
  chat.current?.command('identify', { token: 'wst_…' });
  chat.current?.command('open');
  // @ts-expect-error identify takes {token}
  chat.current?.command('identify', 'wst_…');
  // @ts-expect-error no such command
  chat.current?.command('explode');
  // @ts-expect-error setTheme's mode is light, dark or auto
  chat.current?.command('setTheme', { mode: 'sepia' });

  // @ts-expect-error baseUrl is required
  void (<ParleyChat siteKey="pk_test_x" />);
  // @ts-expect-error colorScheme is light, dark or auto
  void (<ParleyChat baseUrl="https://chat.example.com" colorScheme="sepia" />);

  return (
    <ParleyChat
      ref={chat}
      baseUrl="https://chat.example.com"
      siteKey="pk_live_x"
      sessionToken={token}
      locale="de"
      colorScheme="auto"
      color="#1f3a5f"
      style={{ flex: 1 }}
      onEvent={(event, payload) => {
        if (event === 'unread') setBadge(payload.count);
        if (event === 'message') {
          const text: string = payload.text;
          void text;
          // @ts-expect-error a message has no count
          void payload.count;
        }
      }}
    />
  );
}
