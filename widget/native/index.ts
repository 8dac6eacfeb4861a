/**
 * The door of `widget/native`: Parley's chat for React Native apps, on react-native-webview, and
 * the typed messages of its bridge (the same command and event names as the web widget's API).
 */
export { ParleyChat, type ParleyChatHandle, type ParleyChatProps } from './ParleyChat.tsx';
export {
  commandMessage,
  eventMessage,
  initMessage,
  parseBridgeMessage,
  type BridgeParse,
  type CommandMessage,
  type EventArgs,
  type EventMessage,
  type InitMessage,
} from './bridge.ts';
export {
  COMMANDS,
  EVENTS,
  type ParleyCommand,
  type ParleyCommands,
  type ParleyEvent,
  type ParleyEvents,
  type ThemeSettings,
} from '../api.ts';
