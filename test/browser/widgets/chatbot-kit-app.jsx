// A help desk as teams build it with react-chatbot-kit: the kit draws the chat and hands each
// message to the page's MessageParser; the page's ActionProvider asks the team's model (an
// Anthropic-compatible Messages API here) and adds the bot's message. Nothing of it is streamed.
import React from 'react';
import { createRoot } from 'react-dom/client';
import Chatbot, { createChatBotMessage } from 'react-chatbot-kit';

const config = {
  botName: 'Penny',
  initialMessages: [createChatBotMessage('Hi, I am Penny. Ask me anything about your parcel.')],
};

// the conversation so far, as the Messages API takes it
const history = [];

function ActionProvider({ createChatBotMessage, setState, children }) {
  const answer = async (text) => {
    history.push({ role: 'user', content: text });
    let reply;
    try {
      const res = await fetch('/chatbot-kit/v1/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'lab', max_tokens: 1024, messages: history }),
      });
      const data = await res.json();
      reply = data.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
    } catch {
      reply = 'Sorry, something went wrong. Please try again.';
    }
    history.push({ role: 'assistant', content: reply });
    setState((prev) => ({ ...prev, messages: [...prev.messages, createChatBotMessage(reply)] }));
  };
  return <div>{React.Children.map(children, (child) => React.cloneElement(child, { actions: { answer } }))}</div>;
}

function MessageParser({ children, actions }) {
  const parse = (message) => actions.answer(message);
  return <div>{React.Children.map(children, (child) => React.cloneElement(child, { parse, actions: {} }))}</div>;
}

createRoot(document.getElementById('root')).render(
  <Chatbot config={config} actionProvider={ActionProvider} messageParser={MessageParser} headerText="Parcel help" placeholderText="Ask about your parcel" />,
);
