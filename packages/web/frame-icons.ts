import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import MenuOutlined from '@ant-design/icons-svg/es/asn/MenuOutlined';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import type { Plugin } from 'vite';

/** An icon as src/components/Icon.tsx draws it, as markup. */
function iconMarkup(icon: IconDefinition): string {
  const node = icon.icon as AbstractNode;
  const paths = (node.children ?? []).map((child) => `<path d="${child.attrs.d}"${child.attrs['fill-rule'] ? ` fill-rule="${child.attrs['fill-rule']}"` : ''}></path>`);
  return `<svg viewBox="${node.attrs.viewBox}" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">${paths.join('')}</svg>`;
}

/**
 * `.vite/frame-icons.json`: the icons of the public header (the phone's menu button, the language
 * switch) as the app draws them, for the first screen the server writes into a landing page
 * (packages/server/src/modules/landing/first-screen.ts), so that it matches the app's header.
 */
export function frameIcons(): Plugin {
  return {
    name: 'portal-frame-icons',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '.vite/frame-icons.json', source: JSON.stringify({ menu: iconMarkup(MenuOutlined), global: iconMarkup(GlobalOutlined) }) });
    },
  };
}
