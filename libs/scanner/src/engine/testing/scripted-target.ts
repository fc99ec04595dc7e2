import { ChatDriver } from '../../chat-driver';

/** a target whose every answer is scripted, for the engine's specs: a string is said, an Error thrown */
export function scripted(answer: (message: string) => string | Error): ChatDriver {
  return {
    openConversation: async () => ({
      send: async (message: string) => {
        const a = answer(message);
        if (a instanceof Error) throw a;
        return a;
      },
      close: async () => undefined,
    }),
    close: async () => undefined,
  };
}
