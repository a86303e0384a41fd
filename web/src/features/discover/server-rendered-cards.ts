/**
 * Cards of each Discover list (Featured, More Servers) in the server's HTML and in the render that hydrates
 * it; the browser renders the rest right after hydrating (decision 049, session 18). Three rows at the
 * widest grid, more than a phone's or a laptop's first screen: the cards below cost the server's renderer
 * ~1.6 ms of CPU each (a member's Discover with 50 featured and 24 regular cards: ~130 ms, with 9 + 9:
 * ~40 ms) and the page's HTML 1.7 kB each, for markup nobody sees before the app has started.
 */
export const SERVER_RENDERED_CARDS = 9;
