import { useLayoutEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { ArrowLeftIcon, ArrowRightIcon, GripIcon, TrashIcon } from '../../../components/ui/icons.tsx';

/** One photo in the grid: a preview (object URL or the served card image) and a name to say. */
export interface PhotoTile {
  key: string;
  src: string;
  /** File name, or "Photo 3" for one already on the server. */
  name: string;
  detail?: string;
  width?: number;
  height?: number;
}

const DRAG_TYPE = 'application/x-luxemotors-photo';

type Focus = { key: string; action: 'earlier' | 'later' } | { index: number; action: 'remove' };

/**
 * The chosen photos in order, the first being the cover. Each can be moved earlier or later
 * with buttons (keyboard and screen readers; focus stays with the photo moved) or dragged onto
 * another's place, and removed. Every move is announced.
 */
export function PhotoGrid({
  tiles,
  onMove,
  onRemove,
  disabled = false,
  label,
}: {
  tiles: readonly PhotoTile[];
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
  disabled?: boolean;
  label: string;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  const focusNext = useRef<Focus | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const count = tiles.length;

  // After a move or removal, put focus back where the user was working.
  useLayoutEffect(() => {
    const want = focusNext.current;
    const list = listRef.current;
    if (!want || !list) return;
    focusNext.current = null;
    const items = Array.from(list.querySelectorAll<HTMLLIElement>(':scope > li'));
    const item = 'key' in want ? items.find((li) => li.dataset.key === want.key) : items[Math.min(want.index, items.length - 1)];
    if (!item) return;
    const buttons = ['earlier', 'later', 'remove'].map((a) => item.querySelector<HTMLButtonElement>(`button[data-action="${a}"]`));
    const preferred = item.querySelector<HTMLButtonElement>(`button[data-action="${want.action}"]`);
    (preferred && !preferred.disabled ? preferred : buttons.find((b) => b && !b.disabled))?.focus();
  }, [tiles]);

  function move(from: number, to: number, action: 'earlier' | 'later' | null) {
    const tile = tiles[from];
    if (!tile || to < 0 || to >= count || from === to) return;
    if (action) focusNext.current = { key: tile.key, action };
    onMove(from, to);
    setAnnouncement(`${tile.name} is now photo ${to + 1} of ${count}${to === 0 ? ', the cover photo' : ''}.`);
  }

  function remove(index: number) {
    const tile = tiles[index];
    if (!tile) return;
    focusNext.current = { index, action: 'remove' };
    onRemove(index);
    setAnnouncement(`${tile.name} removed.`);
  }

  const dragHandlers = (index: number) =>
    disabled
      ? {}
      : {
          draggable: true,
          onDragStart: (event: DragEvent<HTMLLIElement>) => {
            event.dataTransfer.setData(DRAG_TYPE, String(index));
            event.dataTransfer.effectAllowed = 'move';
            setDragFrom(index);
          },
          onDragOver: (event: DragEvent<HTMLLIElement>) => {
            if (!Array.from(event.dataTransfer.types).includes(DRAG_TYPE)) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'move';
            if (dropAt !== index) setDropAt(index);
          },
          onDrop: (event: DragEvent<HTMLLIElement>) => {
            if (!Array.from(event.dataTransfer.types).includes(DRAG_TYPE)) return;
            event.preventDefault();
            event.stopPropagation();
            const from = dragFrom ?? Number(event.dataTransfer.getData(DRAG_TYPE));
            setDragFrom(null);
            setDropAt(null);
            if (Number.isInteger(from)) move(from, index, null);
          },
          onDragEnd: () => {
            setDragFrom(null);
            setDropAt(null);
          },
        };

  return (
    <>
      {count > 0 && (
        <ol ref={listRef} className="photo-grid" aria-label={label} data-testid="photo-grid">
          {tiles.map((tile, index) => (
            <li
              key={tile.key}
              data-key={tile.key}
              className={[
                'photo-tile',
                dragFrom === index ? 'is-dragging' : '',
                dropAt === index && dragFrom !== index ? 'is-drop-target' : '',
              ]
                .filter(Boolean)
                .join(' ')}
              data-testid="photo-tile"
              {...dragHandlers(index)}
            >
              <div className="media-frame photo-tile__media">
                <img
                  src={tile.src}
                  alt={`Photo ${index + 1}: ${tile.name}`}
                  width={tile.width ?? 320}
                  height={tile.height ?? 200}
                  decoding="async"
                  draggable={false}
                />
                {index === 0 && <span className="photo-tile__cover">Cover photo</span>}
                {!disabled && count > 1 && (
                  <span className="photo-tile__grip" aria-hidden="true" title="Drag to reorder">
                    <GripIcon size={18} />
                  </span>
                )}
              </div>
              <div className="photo-tile__body">
                <p className="photo-tile__name" title={tile.name}>
                  <span className="photo-tile__position">{index + 1}.</span> {tile.name}
                </p>
                {tile.detail && <p className="photo-tile__detail">{tile.detail}</p>}
                <div className="photo-tile__actions">
                  <TileAction
                    action="earlier"
                    label={`Move photo ${index + 1} earlier`}
                    title="Move earlier"
                    disabled={disabled || index === 0}
                    onClick={() => move(index, index - 1, 'earlier')}
                  >
                    <ArrowLeftIcon size={18} />
                  </TileAction>
                  <TileAction
                    action="later"
                    label={`Move photo ${index + 1} later`}
                    title="Move later"
                    disabled={disabled || index === count - 1}
                    onClick={() => move(index, index + 1, 'later')}
                  >
                    <ArrowRightIcon size={18} />
                  </TileAction>
                  <TileAction
                    action="remove"
                    label={`Remove photo ${index + 1}`}
                    title="Remove"
                    disabled={disabled}
                    onClick={() => remove(index)}
                  >
                    <TrashIcon size={18} />
                  </TileAction>
                </div>
              </div>
            </li>
          ))}
        </ol>
      )}
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

/** One of a tile's icon buttons: moving the photo earlier or later, or removing it. */
function TileAction({
  action,
  label,
  title,
  disabled,
  onClick,
  children,
}: {
  action: 'earlier' | 'later' | 'remove';
  label: string;
  title: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={action === 'remove' ? 'tile-action tile-action--remove' : 'tile-action'}
      data-action={action}
      aria-label={label}
      title={title}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
