import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';

/**
 * An Ant Design icon drawn from its path data alone (`@ant-design/icons-svg`), so that pages
 * without Ant Design show the same icons without loading its icon components. Decorative: the
 * control it sits in carries the name.
 */
export function Icon({ icon }: { icon: IconDefinition }) {
  const node = icon.icon as AbstractNode;
  return (
    <svg viewBox={node.attrs.viewBox} width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">
      {node.children?.map((child, index) => (
        <path key={index} d={child.attrs.d} fillRule={child.attrs['fill-rule'] as 'evenodd' | undefined} />
      ))}
    </svg>
  );
}
