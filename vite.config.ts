import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webRoot = fileURLToPath(new URL('./web', import.meta.url));

/**
 * Each react-icons pack (`react-icons/lu`, ...) is one module holding every icon, so the bundler puts
 * all icons the app uses in one chunk that the login page loads too. This rewrites the web app's
 * `import { LuX } from 'react-icons/lu'` into one small module per icon (the same GenIcon call, taken
 * from the pack), so each icon lands in the chunk of the pages that use it.
 */
function reactIconsPerIcon(): Plugin {
  const prefix = 'virtual:react-icon/';
  const iconsDir = path.resolve(
    path.dirname(createRequire(import.meta.url).resolve('react-icons/lib')),
    '..',
  );
  const packs = new Map<string, Map<string, string>>();
  const iconsOf = (pack: string) => {
    let icons = packs.get(pack);
    if (!icons) {
      icons = new Map();
      const source = readFileSync(path.join(iconsDir, pack, 'index.mjs'), 'utf8');
      const iconRe = /^export function (\w+) \(props\) \{\n {2}return (GenIcon\(.*\))\(props\);\n\};$/gm;
      for (const [, name, genIcon] of source.matchAll(iconRe)) icons.set(name!, genIcon!);
      packs.set(pack, icons);
    }
    return icons;
  };
  const importRe = /import\s*\{([^}]*)\}\s*from\s*['"]react-icons\/(lu|fa6)['"];?/g;
  return {
    name: 'react-icons-per-icon',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(webRoot) || !/\.[jt]sx?$/.test(id) || !code.includes('react-icons/')) return null;
      const out = code.replace(importRe, (statement, names: string, pack: string) => {
        const imports = names
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n && !n.startsWith('type '))
          .map((n) => `import { ${n} } from '${prefix}${pack}/${n.split(/\s+as\s+/)[0]}';`);
        // Keep the line count, so source maps of the rest of the file stay right.
        const lines = statement.split('\n').length;
        return imports.join(' ') + '\n'.repeat(lines - 1);
      });
      return out === code ? null : { code: out, map: null };
    },
    resolveId(id) {
      return id.startsWith(prefix) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return null;
      const [pack = '', name = ''] = id.slice(prefix.length + 1).split('/');
      const icon = iconsOf(pack).get(name);
      if (!icon) this.error(`react-icons/${pack} has no icon ${name}`);
      return {
        code: `import { GenIcon } from 'react-icons/lib';\nexport function ${name}(props) {\n  return ${icon}(props);\n}\n`,
        moduleSideEffects: false,
      };
    },
  };
}

// The SPA lives in web/; the server serves the build from dist/web.
export default defineConfig({
  root: webRoot,
  plugins: [reactIconsPerIcon(), react()],
  resolve: {
    alias: { '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
  },
  server: { proxy: { '/api': 'http://localhost:5000' } },
});
