// The web chat page each bot serves at "/": a message list, an input and a send button. It posts
// the whole history to the bot's own API and renders answers with innerHTML, the way many naive
// widgets do, so markup in an answer runs in the page. No external resources.
export function chatPage(title: string): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f3f6f8; color: #1d2a33; }
  header { background: #0f6e6e; color: #fff; padding: 12px 16px; font-weight: 600; }
  #messages { list-style: none; margin: 0; padding: 16px; height: calc(100vh - 140px); overflow-y: auto; }
  #messages li { margin: 8px 0; padding: 10px 12px; border-radius: 10px; max-width: 80%; white-space: pre-wrap; }
  #messages li.user { background: #d9efef; margin-left: auto; }
  #messages li.assistant { background: #fff; border: 1px solid #dde5ea; }
  form { display: flex; gap: 8px; padding: 12px 16px; border-top: 1px solid #dde5ea; background: #fff; }
  #input { flex: 1; padding: 10px; border: 1px solid #b8c7d0; border-radius: 8px; font-size: 15px; }
  #send { padding: 10px 18px; border: 0; border-radius: 8px; background: #0f6e6e; color: #fff; font-size: 15px; cursor: pointer; }
</style>
</head>
<body>
<header>${esc(title)}</header>
<ul id="messages" aria-live="polite"></ul>
<form id="chat">
  <input id="input" name="message" autocomplete="off" placeholder="Type your message…" aria-label="Message">
  <button id="send" type="submit">Send</button>
</form>
<script>
  var conversation = [];
  var list = document.getElementById('messages');
  var input = document.getElementById('input');
  function add(role, content) {
    var li = document.createElement('li');
    li.className = role;
    if (role === 'assistant') li.innerHTML = content; else li.textContent = content;
    list.appendChild(li);
    list.scrollTop = list.scrollHeight;
    return li;
  }
  document.getElementById('chat').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var text = input.value.trim();
    if (!text) return;
    input.value = '';
    conversation.push({ role: 'user', content: text });
    add('user', text);
    fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'wren', messages: conversation })
    }).then(function (res) { return res.json(); }).then(function (body) {
      var answer = body && body.choices && body.choices[0] ? body.choices[0].message.content : (body.error ? body.error.message : '');
      conversation.push({ role: 'assistant', content: answer });
      add('assistant', answer);
    }).catch(function (err) { add('assistant', 'Sorry, something went wrong: ' + err); });
  });
</script>
</body>
</html>
`;
}
