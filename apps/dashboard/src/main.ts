// The shell: routes /app/... paths to pages, keeps the account in the header, signs out on 401.
import { answer, client, session, whenUnauthorized, type Schemas } from './api/client';
import type { Page, PageContext } from './page';
import * as keys from './pages/api-keys';
import * as auth from './pages/auth';
import * as fleet from './pages/fleet';
import * as monitor from './pages/monitor';
import * as scanDetail from './pages/scan-detail';
import * as scans from './pages/scans';
import * as schedules from './pages/schedules';
import * as targets from './pages/targets';
import * as webhooks from './pages/webhooks';
import { clear, h } from './widgets/dom';

interface Route {
  path: string;
  page: Page;
  public?: boolean;
  nav?: string;
}

const routes: Route[] = [
  { path: '/app/signin', page: auth.signIn, public: true },
  { path: '/app/register', page: auth.register, public: true },
  { path: '/app/fleet', page: fleet.page, nav: 'fleet' },
  { path: '/app/schedules', page: schedules.page, nav: 'schedules' },
  { path: '/app/targets', page: targets.list, nav: 'targets' },
  { path: '/app/targets/new', page: targets.create, nav: 'targets' },
  { path: '/app/targets/:id', page: targets.detail, nav: 'targets' },
  { path: '/app/targets/:id/edit', page: targets.edit, nav: 'targets' },
  { path: '/app/scans', page: scans.list, nav: 'scans' },
  { path: '/app/scans/:id', page: scanDetail.detail, nav: 'scans' },
  { path: '/app/api-keys', page: keys.page, nav: 'api-keys' },
  { path: '/app/webhooks', page: webhooks.list, nav: 'webhooks' },
  { path: '/app/webhooks/:id', page: webhooks.detail, nav: 'webhooks' },
  { path: '/app/monitor', page: monitor.page, nav: 'monitor' },
  { path: '/app/monitor/:id', page: monitor.page, nav: 'monitor' },
];

function match(pathname: string): { route: Route; params: Record<string, string> } | null {
  const parts = pathname.replace(/\/+$/, '').split('/');
  for (const r of routes) {
    const rp = r.path.split('/');
    if (rp.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (rp.every((seg, i) => (seg.startsWith(':') ? ((params[seg.slice(1)] = decodeURIComponent(parts[i])), true) : seg === parts[i]))) return { route: r, params };
  }
  return null;
}

/** an element of index.html, which is served with the script and always has it */
const byId = <E extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as E;

const main = byId('main');
const shell = byId('shell');
let account: Schemas['MeView'] | null = null;
let leaving: (() => void)[] = [];
let renderSeq = 0;

export function toast(text: string, kind: 'info' | 'error' = 'info'): void {
  const region = byId('toasts');
  const t = h('div', { class: `toast toast-${kind}` }, text);
  region.append(t);
  // a few at a time, briefly: they confirm, the page itself shows the result
  while (region.children.length > 3) region.firstElementChild?.remove();
  setTimeout(() => t.remove(), 4500);
}

export function navigate(path: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render();
}

async function loadAccount(): Promise<void> {
  const me = await answer(client.GET('/api/account'));
  account = me;
  byId('account-email').textContent = me.email;
  const plan = byId('account-plan');
  plan.textContent = `${me.plan} plan`;
  plan.className = `plan-badge plan-${String(me.plan).replace(/[^a-z]/g, '')}`;
}

function setSignedIn(on: boolean): void {
  shell.dataset.signedIn = String(on);
  byId('account').hidden = !on;
  byId('sidebar').hidden = !on;
}

function signOut(message?: string): void {
  session.clear();
  account = null;
  setSignedIn(false);
  navigate('/app/signin', { replace: true });
  if (message) toast(message);
}

whenUnauthorized(() => signOut('Your session has ended. Sign in again to continue.'));

async function render(): Promise<void> {
  const seq = ++renderSeq;
  for (const fn of leaving) fn();
  leaving = [];
  let { pathname } = location;
  if (pathname === '/' || pathname === '/app' || pathname === '/app/') pathname = session.token ? '/app/fleet' : '/app/signin';
  const found = match(pathname);
  if (pathname !== location.pathname) history.replaceState(null, '', pathname);

  if (!found?.route.public && !session.token) return navigate('/app/signin', { replace: true });
  if (found?.route.public && session.token) return navigate('/app/fleet', { replace: true });

  if (session.token && !account) {
    try {
      await loadAccount();
    } catch (err) {
      if (session.token) {
        clear(main).append(h('h1', null, 'Gauntlet'), h('p', { class: 'notice notice-error', role: 'alert' }, `Your account could not be loaded: ${(err as Error).message}`));
        return;
      }
      return; // a 401 already signed out
    }
  }
  if (seq !== renderSeq) return;
  setSignedIn(Boolean(session.token));
  for (const a of document.querySelectorAll<HTMLElement>('[data-nav]')) {
    if (a.dataset.nav === found?.route.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }

  clear(main);
  if (!found) {
    main.append(h('h1', null, 'Page not found'), h('p', null, 'There is no page at this address. ', h('a', { href: '/app/targets' }, 'Go to your targets.')));
    return focusHeading();
  }
  const ctx: PageContext = {
    main,
    params: found.params,
    query: new URLSearchParams(location.search),
    account,
    navigate,
    toast,
    onLeave: (fn) => leaving.push(fn),
    alive: () => seq === renderSeq,
    signedIn: async (token) => {
      session.set(token);
      account = null;
      navigate('/app/fleet', { replace: true });
    },
  };
  try {
    await found.route.page(ctx);
  } catch (err) {
    if (seq !== renderSeq) return;
    main.append(h('div', { class: 'notice notice-error', role: 'alert' }, h('p', null, (err as Error).message ?? String(err)), h('p', null, h('a', { href: location.pathname }, 'Reload this page'))));
  }
  if (seq === renderSeq) focusHeading();
}

function focusHeading(): void {
  const h1 = main.querySelector('h1');
  document.title = h1 ? `${h1.textContent} · Gauntlet` : 'Gauntlet';
  // moves screen readers and keyboard users to the new page, as a full load would
  const active = document.activeElement;
  if (active === document.body || main.contains(active) || active?.closest('nav,header')) {
    if (h1) {
      h1.setAttribute('tabindex', '-1');
      h1.focus({ preventScroll: true });
    }
  }
}

document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.<HTMLAnchorElement>('a[href]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !(url.pathname === '/' || url.pathname.startsWith('/app'))) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void render());
byId('sign-out').addEventListener('click', () => signOut('You are signed out.'));

void render();
