// Held-out chatbots: a second family of deliberately vulnerable (and one careful) chatbots, written
// without knowledge of the scanner, for measuring how well it generalises. See README.md.
import { HELD_OUT_BOT_KINDS, HeldOutBotKind, KINDS } from './kinds';
import { HeldOutBot, MODEL_ID, serve } from './server';

export { HELD_OUT_BOT_KINDS, KINDS, MODEL_ID };
export type { HeldOutBot, HeldOutBotKind };

/** Starts one held-out bot on 127.0.0.1 (a free port). It serves the OpenAI chat-completions protocol
 * at `${url}/v1/chat/completions` and lists its model at `${url}/v1/models`. */
export function startHeldOutBot(kind: HeldOutBotKind): Promise<HeldOutBot> {
  return serve(kind);
}
