import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_QUERY_MAX } from '@portal/shared/domain/search';
import { pageLanguage } from '../../app/i18n';
import { useSettled } from '../../components/useSettled';
import { fetchSuggestions } from './api';

const SUGGEST_DELAY_MS = 200;

/**
 * The search box: a combobox (ARIA 1.2, list autocomplete) whose listbox suggests keywords and
 * titles as one types. Arrow keys move through the suggestions, Enter takes the active one (or
 * searches what was typed), Escape closes the list. A suggestion searches its text.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-suggestions`;
  const [text, setText] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // The address changed (back button, a link): the box shows its words, set while rendering (React's way
  // to follow a prop, without an effect's second render).
  const [followed, setFollowed] = useState(value);
  if (followed !== value) {
    setFollowed(value);
    setText(value);
  }

  const typed = useSettled(text.trim(), SUGGEST_DELAY_MS);
  const suggestions = useQuery({
    queryKey: ['search', 'suggest', pageLanguage, typed],
    queryFn: () => fetchSuggestions(typed),
    enabled: open && typed !== '',
    staleTime: 30_000,
    // The list stays while the next one loads, rather than closing and opening under the keys.
    placeholderData: keepPreviousData,
  });
  const items = open && typed !== '' && text.trim() !== '' ? (suggestions.data ?? []) : [];
  const expanded = items.length > 0;
  // A new list may be shorter than the one the active suggestion was in.
  const current = active < items.length ? active : -1;

  const search = (q: string) => {
    setText(q);
    setOpen(false);
    setActive(-1);
    onSearch(q.trim());
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      if (!items.length) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // Positions -1 (the box itself) to the last suggestion, round and round.
      const positions = items.length + 1;
      setActive(((current + 1 + step + positions) % positions) - 1);
    } else if (event.key === 'Enter' && expanded && current >= 0) {
      event.preventDefault();
      search(items[current]!.text);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <form
      className="sp-searchbar"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        search(text);
      }}
    >
      <label htmlFor={id} className="sp-visually-hidden">
        {t('search.ui.searchLabel')}
      </label>
      <div className="sp-combo">
        <input
          id={id}
          type="search"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && current >= 0 ? `${listId}-${current}` : undefined}
          autoComplete="off"
          enterKeyHint="search"
          maxLength={SEARCH_QUERY_MAX}
          placeholder={t('search.ui.placeholder')}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={handleKeyDown}
          onBlur={() => setOpen(false)}
        />
        <ul id={listId} role="listbox" aria-label={t('search.ui.suggestions')} className="sp-suggestions" hidden={!expanded}>
          {items.map((item, index) => (
            <li
              key={`${item.kind}-${item.id ?? ''}-${item.text}`}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === current}
              className={index === current ? 'is-active' : undefined}
              // Keeps the focus in the box, so that the list does not close before the click.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => search(item.text)}
            >
              <span className="sp-suggestion-text">{item.text}</span>
              <span className="sp-suggestion-kind">{t(`search.ui.suggestionKind.${item.kind}`)}</span>
            </li>
          ))}
        </ul>
      </div>
      <button type="submit" className="sp-button sp-button-primary">
        {t('search.ui.submit')}
      </button>
    </form>
  );
}
