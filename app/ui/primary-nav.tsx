import { Menu, ShoppingCart, X } from "lucide-react";
import { Link, NavLink } from "react-router";
import { Logo } from "./logo";
import { publicAreas, useRootData, useSite } from "./site";

/**
 * The site's main navigation. `light` is the variant drawn over a dark hero image: transparent,
 * white text. The mobile menu is a <details> disclosure so it opens before JavaScript has loaded.
 */
export function PrimaryNav({ light = false, cartCount }: { light?: boolean; cartCount?: number }) {
  const site = useSite();
  const user = useRootData()?.user ?? null;
  const tone = light
    ? "absolute inset-x-0 top-0 z-40 text-white"
    : "sticky top-0 z-40 border-b border-line bg-surface/95 text-text backdrop-blur supports-[backdrop-filter]:bg-surface/80";
  const linkTone = light ? "hover:text-accent-strong" : "hover:text-text text-muted";
  return (
    <header className={tone}>
      <a
        href="#main"
        className="sr-only rounded bg-accent px-3 py-2 font-semibold text-on-accent focus:not-sr-only focus:absolute focus:left-3 focus:top-3 focus:z-50"
      >
        Skip to content
      </a>
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-[1200px] items-center gap-6 px-4 sm:px-6">
        <Link to="/" className="rounded" aria-label={`${site.name} home`}>
          <Logo name={site.name} />
        </Link>
        <ul className="hidden items-center gap-5 text-[0.95rem] font-semibold md:flex">
          {publicAreas.map((area) => (
            <li key={area.to}>
              <NavLink
                to={area.to}
                prefetch="intent"
                className={({ isActive }) =>
                  `rounded transition-colors ${isActive ? (light ? "text-accent-strong" : "text-text underline decoration-accent decoration-2 underline-offset-8") : linkTone}`
                }
              >
                {area.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-2">
          <Link
            to="/cart"
            className={`relative grid size-10 place-items-center rounded-full transition-colors ${light ? "hover:bg-white/10" : "hover:bg-surface-sunken"}`}
          >
            <ShoppingCart aria-hidden className="size-5" />
            <span className="sr-only">Cart</span>
            {cartCount ? (
              <span className="absolute -right-1 -top-1 rounded-full bg-accent px-1.5 text-xs font-bold text-on-accent">
                {cartCount}
              </span>
            ) : null}
          </Link>
          {user ? (
            <Link
              to="/members"
              className={`hidden rounded-full px-4 py-2 text-sm font-semibold sm:inline-block ${light ? "bg-white/10 hover:bg-white/20" : "bg-surface-sunken hover:bg-line"}`}
            >
              My account
            </Link>
          ) : (
            <Link
              to="/login"
              className="hidden rounded-full bg-accent px-4 py-2 text-sm font-bold text-on-accent hover:bg-accent-strong sm:inline-block"
            >
              Sign in
            </Link>
          )}
          <details className="group relative md:hidden">
            <summary
              className={`grid size-10 cursor-pointer list-none place-items-center rounded-full [&::-webkit-details-marker]:hidden ${light ? "hover:bg-white/10" : "hover:bg-surface-sunken"}`}
            >
              <Menu aria-hidden className="size-6 group-open:hidden" />
              <X aria-hidden className="hidden size-6 group-open:block" />
              <span className="sr-only">Menu</span>
            </summary>
            <div className="fixed inset-x-0 top-16 z-50 border-b border-line bg-surface px-4 pb-6 pt-2 text-text shadow-xl">
              <ul className="grid gap-1 text-lg font-semibold">
                {publicAreas.map((area) => (
                  <li key={area.to}>
                    <Link to={area.to} className="block rounded-lg px-3 py-3 hover:bg-surface-sunken">
                      {area.label}
                    </Link>
                  </li>
                ))}
                <li className="mt-2 border-t border-line pt-3">
                  <Link
                    to={user ? "/members" : "/login"}
                    className="block rounded-lg bg-accent px-3 py-3 text-center text-on-accent"
                  >
                    {user ? "My account" : "Sign in"}
                  </Link>
                </li>
              </ul>
            </div>
          </details>
        </div>
      </nav>
    </header>
  );
}
