import type { ChatTurn, WidgetBot } from './widget-server';

/**
 * A bot that talks the way a small real model does in front of a widget: it restates what it was
 * asked (part of it, reworded), then answers as the lab's vulnerable brain would, and adds a line
 * of its own. Everything it says is recorded, so a test can tell what the bot said from what we
 * sent.
 */
export function modelLikeBot(brain: WidgetBot): WidgetBot & { said: string[] } {
  const said: string[] = [];
  const bot = (conversation: ChatTurn[]) => {
    const question = conversation.filter((t) => t.role === 'user').pop()?.content ?? '';
    const gist = question.replace(/\s+/g, ' ').slice(0, 40).replace(/[<>[\]()`*_]/g, '');
    const answer = `You asked about "${gist}…". ${brain(conversation)}\n\nIs there anything else I can help you with today?`;
    said.push(answer);
    return answer;
  };
  return Object.assign(bot, { said });
}
