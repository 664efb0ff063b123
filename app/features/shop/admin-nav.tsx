import { ArrowLeft, ExternalLink } from "lucide-react";
import { Link, NavLink } from "react-router";
import { Badge } from "~/ui/badge";

/** The top of a product's editor pages: back to the list, its title and status, and their tabs. */
export function ProductEditorHeader({
  product,
}: {
  product: { id: string; slug: string; title: string; status: "draft" | "active" | "archived" };
}) {
  const tab = ({ isActive }: { isActive: boolean }) =>
    `-mb-px border-b-[3px] pb-2 font-bold ${isActive ? "border-accent" : "border-transparent text-muted hover:text-text"}`;
  return (
    <div className="space-y-4">
      <Link
        to="/admin/shop"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-text"
      >
        <ArrowLeft aria-hidden className="size-4" /> Shop
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="wide text-3xl font-extrabold sm:text-4xl">{product.title}</h1>
        <div className="flex items-center gap-3">
          <Badge tone={product.status === "active" ? "success" : product.status === "draft" ? "neutral" : "quiet"}>
            {product.status === "active" ? "On sale" : product.status === "draft" ? "Draft" : "Archived"}
          </Badge>
          <Link
            to={`/shop/${product.slug}`}
            className="inline-flex items-center gap-1.5 text-sm font-semibold text-link underline"
          >
            {product.status === "active" ? "View in the shop" : "Preview"}{" "}
            <ExternalLink aria-hidden className="size-4" />
          </Link>
        </div>
      </div>
      <nav aria-label="Product" className="flex gap-6 border-b border-line">
        <NavLink to={`/admin/shop/${product.id}`} end className={tab}>
          Details & stock
        </NavLink>
        <NavLink to={`/admin/shop/${product.id}/images`} className={tab}>
          Photos
        </NavLink>
      </nav>
    </div>
  );
}
