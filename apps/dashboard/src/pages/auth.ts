import { answer, client } from '../api/client';
import type { PageContext } from '../page';
import { h, type Child } from '../widgets/dom';
import { busy, clearErrors, field, formAlert, showErrors, type FormProblem } from '../widgets/forms';

interface Credentials {
  email: string;
  password: string;
}

function authCard(ctx: PageContext, { title, lead, fields, submit, footer, onSubmit }: { title: string; lead: string; fields: HTMLElement[]; submit: string; footer: Child; onSubmit: (d: Credentials) => Promise<void> }) {
  const btn = h('button', { type: 'submit', class: 'btn btn-primary btn-wide' }, submit);
  const form = h('form', { class: 'form', novalidate: true }, formAlert(), ...fields, btn);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const data = new FormData(form);
    try {
      await busy(btn, () => onSubmit({ email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') }));
    } catch (err) {
      showErrors(form, err as FormProblem);
    }
  });
  ctx.main.append(
    h('section', { class: 'auth-card', 'aria-labelledby': 'auth-title' }, h('h1', { id: 'auth-title' }, title), h('p', { class: 'lead' }, lead), form, h('p', { class: 'auth-foot' }, footer)),
  );
  return form;
}

async function login(ctx: PageContext, { email, password }: Credentials) {
  const token = await answer(client.POST('/api/auth/login', { body: { email, password } }));
  await ctx.signedIn(token.access_token);
}

export function signIn(ctx: PageContext): void {
  authCard(ctx, {
    title: 'Sign in to Gauntlet',
    lead: 'Scan your chatbots and model APIs the way an attacker would.',
    fields: [
      field({ label: 'Email', name: 'email', type: 'email', required: true, autocomplete: 'username' }),
      field({ label: 'Password', name: 'password', type: 'password', required: true, autocomplete: 'current-password' }),
    ],
    submit: 'Sign in',
    footer: ['No account yet? ', h('a', { href: '/app/register' }, 'Create one')],
    onSubmit: (d) => login(ctx, d),
  });
}

export function register(ctx: PageContext): void {
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
      await answer(client.POST('/api/auth/register', { body: { email: d.email, password: d.password } }));
      ctx.toast('Account created. Welcome to Gauntlet.');
      await login(ctx, d);
    },
  });
}
