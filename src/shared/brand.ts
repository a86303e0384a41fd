// The product's name, for the server (API config, bot messages) and the web app (web/src/lib/brand.ts).
export const PRODUCT_NAME = 'CoinSync';
