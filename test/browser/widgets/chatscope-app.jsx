// A support page as teams build it with chatscope's React kit: the kit draws the conversation, the
// page keeps the messages and asks an OpenAI-compatible API for each answer.
import React, { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatContainer, MainContainer, Message, MessageInput, MessageList, TypingIndicator } from '@chatscope/chat-ui-kit-react';

const greeting = { message: 'Hello! I am Penny. How can I help with your parcel?', direction: 'incoming', sender: 'Penny', position: 'single' };

function App() {
  const [messages, setMessages] = useState([greeting]);
  const [typing, setTyping] = useState(false);
  const send = async (_html, text) => {
    const next = [...messages, { message: text, direction: 'outgoing', sender: 'You', position: 'single' }];
    setMessages(next);
    setTyping(true);
    try {
      const res = await fetch('/chatscope/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'lab', messages: next.map((m) => ({ role: m.direction === 'outgoing' ? 'user' : 'assistant', content: m.message })) }),
      });
      const data = await res.json();
      setMessages([...next, { message: data.choices[0].message.content, direction: 'incoming', sender: 'Penny', position: 'single' }]);
    } finally {
      setTyping(false);
    }
  };
  return (
    <MainContainer>
      <ChatContainer>
        <MessageList typingIndicator={typing ? <TypingIndicator content="Penny is typing" /> : null}>
          {messages.map((m, i) => <Message key={i} model={m} />)}
        </MessageList>
        <MessageInput placeholder="Type message here" onSend={send} attachButton={false} />
      </ChatContainer>
    </MainContainer>
  );
}

createRoot(document.getElementById('root')).render(<App />);
