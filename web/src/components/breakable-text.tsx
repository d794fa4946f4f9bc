import { Fragment } from 'react';

/**
 * A text with line-break chances after each of `after`'s characters (`<wbr>`), so a long path or
 * macro wraps at its '/', '.' or '_' ('${service.' / 'title_' / 'quoted}') rather than inside a word.
 */
export function BreakableText({ text, after }: { text: string; after: string }) {
  const chars = after.replace(/[\\\]^-]/g, '\\$&');
  return (
    <>
      {text.split(new RegExp(`(?<=[${chars}])`)).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
