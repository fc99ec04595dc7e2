import { api } from '../api.js';
import { h, field, formAlert, showErrors, clearErrors, busy } from '../dom.js';

function authCard(ctx, { title, lead, fields, submit, footer, onSubmit }) {
  const btn = h('button', { type: 'submit', class: 'btn btn-primary btn-wide' }, submit);
  const form = h('form', { class: 'form', novalidate: true }, formAlert(), ...fields, btn);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const data = Object.fromEntries(new FormData(form));
    try {
      await busy(btn, () => onSubmit(data, form));
    } catch (err) {
      showErrors(form, err);
    }
  });
  ctx.main.append(
    h('section', { class: 'auth-card', 'aria-labelledby': 'auth-title' }, h('h1', { id: 'auth-title' }, title), h('p', { class: 'lead' }, lead), form, h('p', { class: 'auth-foot' }, footer)),
  );
  return form;
}

async function login(ctx, email, password) {
  const token = await api.post('/api/auth/login', { email, password });
  await ctx.signedIn(token.access_token);
}

export function signIn(ctx) {
  authCard(ctx, {
    title: 'Sign in to Gauntlet',
    lead: 'Scan your chatbots and model APIs the way an attacker would.',
    fields: [
      field({ label: 'Email', name: 'email', type: 'email', required: true, autocomplete: 'username' }),
      field({ label: 'Password', name: 'password', type: 'password', required: true, autocomplete: 'current-password' }),
    ],
    submit: 'Sign in',
    footer: ['No account yet? ', h('a', { href: '/app/register' }, 'Create one')],
    onSubmit: (d) => login(ctx, d.email, d.password),
  });
}

export function register(ctx) {
  authCard(ctx, {
    title: 'Create your account',
    lead: 'New accounts start on the free plan: 10 scans a month and JSON reports.',
    fields: [
      field({ label: 'Email', name: 'email', type: 'email', required: true, autocomplete: 'username' }),
      field({ label: 'Password', name: 'password', type: 'password', required: true, autocomplete: 'new-password', hint: 'At least 12 characters.' }),
    ],
    submit: 'Create account',
    footer: ['Already registered? ', h('a', { href: '/app/signin' }, 'Sign in')],
    onSubmit: async (d) => {
      await api.post('/api/auth/register', { email: d.email, password: d.password });
      ctx.toast('Account created. Welcome to Gauntlet.');
      await login(ctx, d.email, d.password);
    },
  });
}
