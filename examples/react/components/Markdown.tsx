/** A message's text as markdown (examples/shared/markdown): one element per block, so a delta redraws only the open block; Copy on code blocks. */
import { memo, useMemo, useRef } from "react";
import { copyCodeFromClick } from "../../shared/markdown/copyCode";
import { StreamedMarkdown, type MarkdownBlock } from "../../shared/markdown/streamedMarkdown";

/**
 * `text` rendered as sanitised markdown. The component keeps one {@link StreamedMarkdown} for its
 * life, so while the text grows (a streamed answer) the finished blocks keep their HTML string
 * and their element: React compares the string and leaves them alone; only the open block is
 * parsed and set again. Clicks on a code block's Copy are handled here, for all blocks at once.
 *
 * @example
 * <Markdown text={messageText(message)} />
 */
export function Markdown({ text }: { readonly text: string }) {
  const view = useRef<StreamedMarkdown | undefined>(undefined);
  view.current ??= new StreamedMarkdown();
  const markdown = view.current;
  const blocks = useMemo(() => markdown.update(text), [markdown, text]);
  return (
    <div className="markdown" data-testid="message-text" onClick={(event) => void copyCodeFromClick(event.nativeEvent)}>
      {blocks.map((block) => (
        <Block key={block.key} block={block} />
      ))}
    </div>
  );
}

/** One block; memoized on the block object, which stays the same once the block is finished. */
const Block = memo(function Block({ block }: { readonly block: MarkdownBlock }) {
  return <div className="md-block" data-open={block.open ? "" : undefined} dangerouslySetInnerHTML={{ __html: block.html }} />;
});
