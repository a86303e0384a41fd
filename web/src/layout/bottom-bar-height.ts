/** Height of the phone's bottom tab bar (Chakra size token: "16" is 4rem); the shell pads the page by it. */
export const BOTTOM_BAR_HEIGHT = '16';
