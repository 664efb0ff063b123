export * from "./accounts";
export * from "./admin";
export * from "./commerce";
export * from "./events";
export * from "./site";
export * from "./order-emails";
