import { ExternalLink, ImageIcon, Info, ListOrdered } from "lucide-react";
import { Link } from "react-router";
import { Badge, type BadgeTone } from "~/ui/badge";
import { countOf } from "~/ui/plural";
import { RecordHeader, type RecordTab } from "~/ui/record-header";
import { useMediaBase } from "~/ui/site";
import type { ProductStatus } from "../../../db/schema";
import type { ProductFacts } from "./admin.server";
import { CATEGORY_LABELS } from "./catalogue-labels";
import { productImageSources } from "./product-image-urls";

const STATUS_BADGES: Record<ProductStatus, { tone: BadgeTone; label: string }> = {
  active: { tone: "success", label: "On sale" },
  draft: { tone: "neutral", label: "Draft" },
  archived: { tone: "quiet", label: "Archived" },
};

/** Whether a product is on sale, a draft or archived, as the shop editor's pages say it. */
export function ProductStatusBadge({ status }: { status: ProductStatus }) {
  return <Badge tone={STATUS_BADGES[status].tone}>{STATUS_BADGES[status].label}</Badge>;
}

/** What is left of the units on the shelf, of a product's variants on sale. */
export function StockFigures({
  available,
  stock,
  onDark = false,
}: {
  available: number;
  stock: number;
  /** On a dark band, whatever the theme. */
  onDark?: boolean;
}) {
  return (
    <p className="tabular text-right text-sm">
      <span className="block text-lg font-extrabold">{available}</span>
      <span className={onDark ? "text-asphalt-300" : "text-muted"}>available of {stock}</span>
    </p>
  );
}

/** The top of every page of one product: what it is, its state and stock, and the tabs between its pages. */
export function ProductEditorHeader({ product }: { product: ProductFacts }) {
  const mediaBase = useMediaBase();
  const photo = product.image ? productImageSources(product.image.hash, "gallery", mediaBase) : null;
  const tabs: RecordTab[] = [
    { to: `/admin/shop/${product.id}`, label: "Details & stock", icon: Info, end: true },
    { to: `/admin/shop/${product.id}/images`, label: "Photos", icon: ImageIcon },
    { to: `/admin/shop/${product.id}/waiting-list`, label: "Waiting list", icon: ListOrdered },
  ];
  return (
    <RecordHeader
      back={{ to: "/admin/shop", label: "Shop" }}
      backdrop={photo ? { avif: photo.avifSrcSet, webp: photo.webpSrcSet, src: photo.src } : null}
      title={product.title}
      badge={<ProductStatusBadge status={product.status} />}
      facts={
        <>
          <p>
            {CATEGORY_LABELS[product.category]}
            <span className="text-asphalt-300"> · {countOf(product.variantCount, "variant", "variants")}</span>
          </p>
          {product.status === "active" ? null : (
            // Staff can see a product that is not on sale: its page says it is a preview.
            <Link
              to={`/shop/${product.slug}`}
              className="inline-flex items-center gap-1.5 text-sm font-semibold text-accent-strong underline"
            >
              Preview <ExternalLink aria-hidden className="size-4" />
            </Link>
          )}
        </>
      }
      figures={<StockFigures available={product.available} stock={product.stock} onDark />}
      publicHref={product.status === "active" ? `/shop/${product.slug}` : null}
      tabsLabel="Product"
      tabs={tabs}
    />
  );
}
