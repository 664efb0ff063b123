import type { LucideIcon } from "lucide-react";
import { ExternalLink, LogOut, Menu, X } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { Logo } from "./logo";
import { useSite } from "./site";

export type DashboardNavItem = {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Active only on this exact path (an area's home page), not on the pages below it. */
  end?: boolean;
};

export type DashboardUser = { name: string; role?: string };

/**
 * The frame of the members' area and the organizer dashboard: a dark top bar, a side navigation
 * that becomes a drawer on small screens, and the page. Pages render their own <h1>.
 */
export function DashboardShell({
  title,
  nav,
  user,
  children,
}: {
  title: string;
  nav: DashboardNavItem[];
  user: DashboardUser;
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-surface">
      <DashboardTopBar title={title} nav={nav} user={user} />
      <div className="mx-auto flex max-w-[1440px]">
        <aside className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-64 shrink-0 overflow-y-auto border-r border-line bg-surface-raised px-3 py-6 lg:block">
          <Sidenav title={title} nav={nav} />
        </aside>
        <main id="main" className="min-w-0 flex-1 px-4 py-8 sm:px-8 lg:py-10">
          {children}
        </main>
      </div>
    </div>
  );
}

function DashboardTopBar({ title, nav, user }: { title: string; nav: DashboardNavItem[]; user: DashboardUser }) {
  const site = useSite();
  return (
    <header className="dark-band sticky top-0 z-40 border-b border-white/10 bg-asphalt-950 text-white">
      <a
        href="#main"
        className="sr-only rounded bg-accent px-3 py-2 font-semibold text-on-accent focus:not-sr-only focus:absolute focus:left-3 focus:top-3 focus:z-50"
      >
        Skip to content
      </a>
      <div className="flex h-16 items-center gap-2 px-3 sm:gap-3 sm:px-5">
        <SidenavDrawer title={title} nav={nav} user={user} />
        <Link to={nav[0]?.to ?? "/"} className="rounded" aria-label={`${site.name} ${title}`}>
          <Logo name={site.name} />
        </Link>
        <span className="hidden rounded-md bg-white/10 px-2 py-1 text-xs font-bold uppercase tracking-[0.14em] text-asphalt-300 sm:inline">
          {title}
        </span>
        <div className="ml-auto flex items-center gap-1 sm:gap-3">
          <Link
            to="/"
            className="hidden items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold text-asphalt-300 hover:bg-white/10 hover:text-white md:inline-flex"
          >
            View site <ExternalLink aria-hidden className="size-4" />
          </Link>
          <p className="hidden max-w-[14rem] truncate text-sm text-asphalt-300 lg:block">
            Signed in as <span className="font-semibold text-white">{user.name}</span>
          </p>
          <Form method="post" action="/logout">
            <button
              type="submit"
              className="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-semibold ring-1 ring-white/25 hover:bg-white/10"
            >
              <LogOut aria-hidden className="size-4" />
              Sign out
            </button>
          </Form>
        </div>
      </div>
    </header>
  );
}

/** The list of an area's pages; the current one is marked for sight and for screen readers. */
function Sidenav({ title, nav }: { title: string; nav: DashboardNavItem[] }) {
  return (
    <nav aria-label={title}>
      <ul className="grid gap-1">
        {nav.map(({ to, label, icon: Icon, end }) => (
          <li key={to}>
            <NavLink
              to={to}
              end={end}
              prefetch="intent"
              className={({ isActive }) =>
                `relative flex items-center gap-3 rounded-xl px-3 py-2.5 font-semibold transition-colors ${
                  isActive
                    ? "bg-surface-sunken text-text before:absolute before:inset-y-2 before:left-0 before:w-1 before:rounded-full before:bg-accent"
                    : "text-muted hover:bg-surface-sunken hover:text-text"
                }`
              }
            >
              <Icon aria-hidden className="size-5 shrink-0" />
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The side navigation on small screens: a <details> disclosure, so it opens before JavaScript
 * has loaded. Once it has, the drawer also closes on navigation, on Escape and on a click
 * outside it.
 */
function SidenavDrawer({ title, nav, user }: { title: string; nav: DashboardNavItem[]; user: DashboardUser }) {
  const drawer = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the effect of the path changing
  useEffect(() => {
    drawer.current?.removeAttribute("open");
  }, [pathname]);

  useEffect(() => {
    const details = drawer.current;
    if (!details) return;
    const close = () => details.removeAttribute("open");
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      close();
      details.querySelector("summary")?.focus();
    };
    const onClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest("[data-drawer-backdrop]")) close();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);

  return (
    <details ref={drawer} className="group lg:hidden">
      <summary className="grid size-10 cursor-pointer list-none place-items-center rounded-full hover:bg-white/10 [&::-webkit-details-marker]:hidden">
        <Menu aria-hidden className="size-6 group-open:hidden" />
        <X aria-hidden className="hidden size-6 group-open:block" />
        <span className="sr-only">{title} menu</span>
      </summary>
      <div data-drawer-backdrop className="fixed inset-0 top-16 z-40 bg-asphalt-950/60" />
      {/* A light panel inside the dark bar: focus rings go back to the light-surface colour. */}
      <div className="fixed bottom-0 left-0 top-16 z-50 w-[min(20rem,85vw)] overflow-y-auto border-r border-line bg-surface-raised px-3 py-5 text-text shadow-2xl [&_:focus-visible]:outline-focus">
        <Sidenav title={title} nav={nav} />
        <div className="mt-5 space-y-3 border-t border-line px-3 pt-5 text-sm">
          <p className="text-muted">
            Signed in as <span className="font-semibold text-text">{user.name}</span>
          </p>
          <Link to="/" className="inline-flex items-center gap-1.5 font-semibold text-link underline">
            View site <ExternalLink aria-hidden className="size-4" />
          </Link>
        </div>
      </div>
    </details>
  );
}
