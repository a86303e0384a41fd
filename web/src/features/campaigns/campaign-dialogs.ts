// The campaign lists' dialogs that a page's first paint does not need (Add members: zod, the shared schemas
// and the form fields; Promote: Chakra's dialog machine), in one chunk fetched when the pointer or focus
// reaches either button (top-up-dialog.tsx, lazy-promote-confirm.tsx). One chunk, not one each: a second
// lazily loaded module made the bundler split the entry into 19 more small files (+4.8 kB gzip on
// Discover's first load, `vite build`, 2026-11-27).
export { TopUpDialog } from './top-up-form.tsx';
export { PromoteConfirmDialog } from './promote-confirm-dialog.tsx';
