import { Link } from "react-router";
import { Logo } from "./logo";
import { memberAreas, publicAreas, useSite } from "./site";

export function Footer() {
  const site = useSite();
  const columns = [
    { title: "Explore", links: publicAreas },
    { title: "Members", links: memberAreas },
    {
      title: "Club",
      links: [
        { to: "/membership", label: "Membership" },
        { to: "/signUp", label: "Join" },
        { to: "/login", label: "Sign in" },
        { to: "/privacy", label: "Privacy" },
        { to: "/terms", label: "Terms" },
        { to: "/responsible-play", label: "Responsible play" },
        { to: "/blog/feed.xml", label: "Blog feed (Atom)", reloadDocument: true },
      ],
    },
  ];
  return (
    <footer className="dark-band mt-24 bg-asphalt-950 text-asphalt-300">
      <div className="mx-auto grid max-w-[1200px] grid-cols-2 gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.4fr_repeat(3,1fr)]">
        <div className="col-span-2 space-y-4 md:col-span-1">
          <Link to="/" className="inline-block rounded text-white" aria-label={`${site.name} home`}>
            <Logo name={site.name} />
          </Link>
          <p className="max-w-xs text-sm leading-relaxed">
            Meets, shows, track days and prize draws for people who love cars. Bring yours.
          </p>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="mb-3 text-xs font-bold uppercase tracking-[0.18em] text-white">{column.title}</h2>
            <ul className="space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    reloadDocument={"reloadDocument" in link ? link.reloadDocument : undefined}
                    className="rounded hover:text-white hover:underline"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-[1200px] px-4 py-6 text-xs sm:px-6">
          © {new Date().getFullYear()} {site.name}. Prices in {site.currency}.
        </p>
      </div>
    </footer>
  );
}
