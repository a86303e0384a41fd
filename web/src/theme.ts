import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  switchSlotRecipe,
  tabsSlotRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';

// Chakra's defaultConfig is defaultBaseConfig plus a theme holding every component's recipe (~20 kB
// gzip of styles this app never renders). This is the same theme with only the recipes of the
// components the app uses: when a new Chakra component renders unstyled, add its recipe here
// (its key is in node_modules/@chakra-ui/react/dist/esm/components/<name>/*.js, `key: "..."`).
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      emptyState: emptyStateSlotRecipe,
      field: fieldSlotRecipe,
      fieldset: fieldsetSlotRecipe,
      list: listSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      progress: progressSlotRecipe,
      stat: statSlotRecipe,
      switch: switchSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
      tooltip: tooltipSlotRecipe,
    },
    textStyles,
    layerStyles,
    animationStyles,
  },
});

// Dark-only theme: <html class="dark"> is set in index.html, and the semantic tokens below
// carry dark values directly so nothing depends on a color-mode toggle.
const config = defineConfig({
  globalCss: {
    // Blurple is the default palette: a plain <Button> is a primary Discord-style button.
    html: { colorPalette: 'brand' },
    'html, body': {
      bg: 'bg',
      color: 'fg',
      colorScheme: 'dark',
      minHeight: '100%',
    },
    body: {
      backgroundImage:
        'radial-gradient(1200px 600px at 10% -10%, rgba(88,101,242,0.14), transparent 60%), radial-gradient(900px 500px at 110% 0%, rgba(245,184,61,0.06), transparent 60%)',
      backgroundAttachment: 'fixed',
    },
    '::selection': { bg: 'brand.500', color: 'white' },
    // Honour the system setting: no transitions, no animations, no smooth scrolling.
    '*, *::before, *::after': {
      _motionReduce: {
        animationDuration: '0.01ms !important',
        animationIterationCount: '1 !important',
        transitionDuration: '0.01ms !important',
        scrollBehavior: 'auto !important',
      },
    },
  },
  theme: {
    tokens: {
      fonts: {
        heading: {
          value:
            "'Inter Variable', 'Inter Fallback', 'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
        },
        body: {
          value:
            "'Inter Variable', 'Inter Fallback', 'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
        },
      },
      colors: {
        brand: {
          50: { value: '#eef0fe' },
          100: { value: '#dfe2fd' },
          200: { value: '#c1c7fb' },
          300: { value: '#9ea6f8' },
          400: { value: '#7b86f5' },
          500: { value: '#5865F2' },
          600: { value: '#4752c4' },
          700: { value: '#3c45a5' },
          800: { value: '#2f3680' },
          900: { value: '#23285e' },
          950: { value: '#161a3d' },
        },
        gold: {
          50: { value: '#fffaeb' },
          100: { value: '#fef0c7' },
          200: { value: '#fde08a' },
          300: { value: '#fcd056' },
          400: { value: '#f7c948' },
          500: { value: '#f0b232' },
          600: { value: '#d08c14' },
          700: { value: '#a86a10' },
          800: { value: '#7a4c0e' },
          900: { value: '#4d300a' },
          950: { value: '#2b1a05' },
        },
      },
    },
    semanticTokens: {
      colors: {
        bg: {
          DEFAULT: { value: '#0f1117' },
          subtle: { value: '#141720' },
          panel: { value: '#171a24' },
          muted: { value: '#1d2130' },
          emphasized: { value: '#272c3e' },
        },
        fg: {
          DEFAULT: { value: '#f2f3f5' },
          muted: { value: '#a4aabb' },
          // ≥ 4.5:1 on every background token up to bg.muted (was #727a8e: 4.04:1 on panels).
          subtle: { value: '#8a91a5' },
        },
        border: {
          DEFAULT: { value: '#262a38' },
          muted: { value: '#1e2230' },
          subtle: { value: '#191c27' },
          emphasized: { value: '#353b4f' },
        },
        brand: {
          solid: { value: '{colors.brand.500}' },
          contrast: { value: '#ffffff' },
          fg: { value: '{colors.brand.300}' },
          muted: { value: '{colors.brand.900}' },
          subtle: { value: '{colors.brand.950}' },
          emphasized: { value: '{colors.brand.800}' },
          focusRing: { value: '{colors.brand.400}' },
        },
        // Solid fills that carry white text (toasts, destructive buttons) at ≥ 4.5:1.
        red: { solid: { value: '{colors.red.700}' } },
        green: { solid: { value: '{colors.green.700}' } },
        orange: { solid: { value: '{colors.orange.700}' } },
        gold: {
          solid: { value: '{colors.gold.500}' },
          contrast: { value: '#1a1203' },
          fg: { value: '{colors.gold.400}' },
          muted: { value: '{colors.gold.900}' },
          subtle: { value: '{colors.gold.950}' },
          emphasized: { value: '{colors.gold.800}' },
          focusRing: { value: '{colors.gold.400}' },
        },
      },
      // One spacing scale for page layout: use these instead of ad-hoc numbers.
      spacing: {
        gutter: { value: '{spacing.4}' },
        section: { value: '{spacing.10}' },
        card: { value: '{spacing.5}' },
        stack: { value: '{spacing.4}' },
      },
    },
    // One type scale for titles: page title (h1), section title (h2), card title (h3).
    textStyles: {
      pageTitle: {
        value: {
          fontSize: { base: '2xl', md: '3xl' },
          fontWeight: 'bold',
          letterSpacing: 'tight',
          lineHeight: '1.2',
        },
      },
      sectionTitle: {
        value: { fontSize: { base: 'lg', md: 'xl' }, fontWeight: 'semibold', lineHeight: '1.3' },
      },
      cardTitle: { value: { fontSize: 'md', fontWeight: 'semibold', lineHeight: '1.4' } },
    },
  },
});

export const system = createSystem(defaultBaseConfig, chakraTheme, config);

/**
 * The system the app's provider gets (decision 031): the same, without the global CSS (preflight, the
 * tokens' CSS variables, globalCss; ~49 kB), which the build writes into index.html as a stylesheet
 * (renderGlobalCss, scripts/build/pages.ts). ChakraProvider then has nothing to serialise, hash and
 * insert at start, in the browser and in every server render. Vite's dev server serves index.html as
 * it is, so there the app uses `system`.
 */
export const appSystem = Object.create(system, {
  _global: { value: [] },
  _config: { value: { ...system._config, disableLayers: true } },
}) as typeof system;
