/** The lab's chat page: plain HTML and JS on the same engine, answers streamed word by word. */
export function chatPage(renderMarkup: boolean, botName = 'Penny'): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat with ${botName}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 720px; margin: 2rem auto; padding: 0 1rem; color: #222; }
  #messages { border: 1px solid #ccc; border-radius: 8px; padding: 1rem; min-height: 300px; max-height: 60vh; overflow-y: auto; }
  .message { margin: .5rem 0; padding: .5rem .75rem; border-radius: 8px; white-space: pre-wrap; word-break: break-word; }
  .message.user { background: #e8f0fe; text-align: right; }
  .message.assistant { background: #f1f3f4; }
  form { display: flex; gap: .5rem; margin-top: 1rem; }
  #message { flex: 1; padding: .5rem; font: inherit; }
  #send { padding: .5rem 1rem; font: inherit; }
</style>
</head>
<body>
<h1>Chat with ${botName}</h1>
<p>${botName === 'Penny' ? 'Acme Parcel Co. support assistant' : 'A support assistant'} (a deliberately vulnerable test lab).</p>
<div id="messages" aria-live="polite"></div>
<form id="chat" autocomplete="off">
  <textarea id="message" name="message" rows="2" placeholder="Type your message" aria-label="Message"></textarea>
  <button id="send" type="submit">Send</button>
</form>
<script>
const RENDER_MARKUP = ${renderMarkup ? 'true' : 'false'};
const history = [];
const list = document.getElementById('messages');
const input = document.getElementById('message');
const button = document.getElementById('send');

function bubble(role, text) {
  const div = document.createElement('div');
  div.className = 'message ' + role;
  div.textContent = text;
  list.appendChild(div);
  list.scrollTop = list.scrollHeight;
  return div;
}

// the weakness: with output_handling on, the page renders what the bot says as HTML,
// markdown images included, so a script or an exfiltration image in an answer takes effect
function render(div, text) {
  if (!RENDER_MARKUP) { div.textContent = text; return; }
  div.innerHTML = text.replace(/!\\[([^\\]]*)\\]\\(([^)\\s]+)\\)/g, '<img alt="$1" src="$2">');
}

async function send(text) {
  history.push({ role: 'user', content: text });
  bubble('user', text);
  const div = bubble('assistant', '');
  div.setAttribute('aria-busy', 'true');
  button.disabled = true;
  let answer = '';
  let painting = false;
  let finished = false;
  // a frame painted after the final render would put the answer back as plain text
  const paint = () => { painting = false; if (finished) return; div.textContent = answer; list.scrollTop = list.scrollHeight; };
  try {
    const res = await fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'penny-lab', stream: true, messages: history }),
    });
    if (!res.ok) throw new Error('The assistant is unavailable (HTTP ' + res.status + ').');
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\\n\\n')) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = event.split('\\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('');
        if (!data || data === '[DONE]') continue;
        const delta = JSON.parse(data).choices[0].delta.content;
        // painted once a frame, not once a word: a long answer would otherwise re-lay out the page per word
        if (delta) { answer += delta; if (!painting) { painting = true; requestAnimationFrame(paint); } }
      }
    }
    finished = true;
    render(div, answer);
    history.push({ role: 'assistant', content: answer });
  } catch (e) {
    div.textContent = e.message;
    div.classList.add('error');
  } finally {
    div.removeAttribute('aria-busy');
    div.dataset.done = 'true';
    button.disabled = false;
    input.focus();
  }
}

document.getElementById('chat').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = input.value.trim();
  if (!text || button.disabled) return;
  input.value = '';
  send(text);
});
input.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); document.getElementById('chat').requestSubmit(); }
});
</script>
</body>
</html>`;
}
