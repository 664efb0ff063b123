import { Link } from "react-router";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { formatMoney } from "~/ui/money";
import { useSite } from "~/ui/site";
import { CATEGORY_LABELS, type ShopTile } from "./catalogue-labels";
import { ProductPicture } from "./product-picture";

/** A product in the shop grid: photo, category, title, "from £x" and its stock badge. */
export function ProductTile({ product, priority = false }: { product: ShopTile; priority?: boolean }) {
  const { currency } = useSite();
  const price = formatMoney(product.fromPrice, currency);
  const soldOut = product.badge === "Sold out";
  return (
    <Card
      as="article"
      className="group relative flex h-full flex-col overflow-hidden transition duration-200 focus-within:border-accent hover:-translate-y-0.5 hover:border-accent hover:shadow-[0_12px_40px_-12px_rgb(255_122_26/0.35)]"
    >
      <div className="relative aspect-[4/5] overflow-hidden bg-surface-sunken">
        <ProductPicture
          image={product.image}
          layout="tile"
          priority={priority}
          className={`size-full transition duration-500 group-hover:scale-[1.03] ${soldOut ? "grayscale-[60%]" : ""}`}
        />
        {product.badge ? (
          <Badge tone={soldOut ? "solid-dark" : "accent"} className="absolute right-3 top-3 shadow-sm">
            {product.badge}
          </Badge>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <p className="text-xs font-bold uppercase tracking-[0.18em] text-accent-ink">
          {CATEGORY_LABELS[product.category]}
        </p>
        <h3 className="text-base font-extrabold leading-snug">
          <Link to={`/shop/${product.slug}`} className="after:absolute after:inset-0 focus:outline-none">
            {product.title}
          </Link>
        </h3>
        <p className="tabular mt-auto pt-1 font-bold">{product.onePrice ? price : <>from {price}</>}</p>
      </div>
    </Card>
  );
}
