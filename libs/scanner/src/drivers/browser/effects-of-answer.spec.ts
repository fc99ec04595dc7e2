import { AnswerReading, effectsOfAnswer } from './answer-effects';

const reading = (over: Partial<AnswerReading> = {}): AnswerReading => ({ markup: '', attribution: 'bot_message', reason: 'r', urls: [], oursUrls: [], scripts: false, oursScripts: false, origins: [], ...over });

describe('the page effects that count: those the bot\'s own message caused', () => {
  const beacon = { kind: 'request' as const, detail: 'https://evil.example/p.png?d=secret' };
  const dialog = { kind: 'dialog' as const, detail: 'alert: TOKEN' };

  it('a request for a URL the bot\'s message loads counts; one our message loads does not', () => {
    expect(effectsOfAnswer([beacon], reading({ urls: [beacon.detail] }))).toEqual([beacon]);
    expect(effectsOfAnswer([beacon], reading({ urls: [beacon.detail], oursUrls: [beacon.detail] }))).toEqual([]);
    expect(effectsOfAnswer([beacon], reading({ oursUrls: ['https://evil.example/other.png'] }))).toEqual([]);
  });

  it('a dialog counts by where it came from; of unknown origin, only when the bot\'s message alone can run script', () => {
    expect(effectsOfAnswer([dialog], reading({ origins: [{ kind: 'dialog', detail: 'TOKEN', where: 'answer' }] }))).toEqual([dialog]);
    expect(effectsOfAnswer([dialog], reading({ scripts: true, origins: [{ kind: 'dialog', detail: 'TOKEN', where: 'ours' }] }))).toEqual([]);
    expect(effectsOfAnswer([dialog], reading({ scripts: true }))).toEqual([dialog]);
    expect(effectsOfAnswer([dialog], reading({ scripts: true, oursScripts: true }))).toEqual([]);
    expect(effectsOfAnswer([dialog], reading())).toEqual([]);
  });

  it('an uncertain reading proves no effect at all', () => {
    expect(effectsOfAnswer([beacon, dialog], reading({ attribution: 'uncertain', urls: [beacon.detail], scripts: true, origins: [{ kind: 'dialog', detail: 'TOKEN', where: 'answer' }] }))).toEqual([]);
  });
});
