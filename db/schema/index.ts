export * from "./accounts";
export * from "./admin";
export * from "./commerce";
export * from "./draw-entries";
export * from "./draws";
export * from "./events";
export * from "./order-emails";
export * from "./site";
