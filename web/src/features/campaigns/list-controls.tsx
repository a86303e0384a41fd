import { Button, Flex, Input, InputGroup, NativeSelect, Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { LuSearch } from 'react-icons/lu';
import { useTranslation } from 'react-i18next';

/** Lists longer than this get a "Show more" (an owner with many campaigns keeps a short page). */
export const LIST_PAGE_SIZE = 20;
/** From this many entries on, a list gets its search box and sort. */
export const LIST_CONTROLS_FROM = 6;

export type ListSort = 'newest' | 'oldest' | 'name' | 'remaining';

const SORTS: readonly ListSort[] = ['newest', 'oldest', 'name', 'remaining'];

interface Sortable {
  name: string;
  createdAt: string;
  membersRemaining: number;
}

/** Search (case-insensitive name substring), sort and paging of an owner's list. */
export function useListControls<T extends Sortable>(items: readonly T[]) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<ListSort>('newest');
  const [pages, setPages] = useState(1);
  const matched = useMemo(() => {
    const q = query.trim().toLowerCase();
    const filtered = q ? items.filter((i) => i.name.toLowerCase().includes(q)) : [...items];
    const byDate = (a: T, b: T) => Date.parse(a.createdAt) - Date.parse(b.createdAt);
    switch (sort) {
      case 'newest':
        return filtered.sort((a, b) => byDate(b, a));
      case 'oldest':
        return filtered.sort(byDate);
      case 'name':
        return filtered.sort((a, b) => a.name.localeCompare(b.name));
      case 'remaining':
        return filtered.sort((a, b) => b.membersRemaining - a.membersRemaining);
    }
  }, [items, query, sort]);
  const limit = pages * LIST_PAGE_SIZE;
  return {
    query,
    setQuery: (value: string) => {
      setQuery(value);
      setPages(1);
    },
    sort,
    setSort,
    matched,
    visible: matched.slice(0, limit),
    /** Shows the page holding `index` of `matched` (e.g. a just-submitted campaign). */
    reveal: (index: number) => setPages((p) => Math.max(p, Math.floor(index / LIST_PAGE_SIZE) + 1)),
    showMore: () => setPages((p) => p + 1),
    hasMore: matched.length > limit,
    showControls: items.length >= LIST_CONTROLS_FROM,
  };
}

export function ListControls({
  label,
  query,
  onQuery,
  sort,
  onSort,
}: {
  /** What is searched, e.g. "campaigns". */
  label: string;
  query: string;
  onQuery: (value: string) => void;
  sort: ListSort;
  onSort: (value: ListSort) => void;
}) {
  const { t } = useTranslation();
  const sortLabels: Record<ListSort, string> = {
    newest: t('campaigns.list.newest'),
    oldest: t('campaigns.list.oldest'),
    name: t('campaigns.list.name'),
    remaining: t('campaigns.list.remaining'),
  };
  return (
    <Flex gap="2" direction={{ base: 'column', sm: 'row' }} mb="4">
      <InputGroup startElement={<LuSearch />} flex="1">
        <Input
          type="search"
          placeholder={t('campaigns.list.searchPlaceholder', { label })}
          aria-label={t('campaigns.list.search', { label })}
          value={query}
          onChange={(e) => onQuery(e.target.value)}
          bg="bg.panel"
          borderRadius="lg"
        />
      </InputGroup>
      <NativeSelect.Root width={{ base: 'full', sm: '48' }}>
        <NativeSelect.Field
          aria-label={t('campaigns.list.sort', { label })}
          value={sort}
          onChange={(e) => onSort(e.currentTarget.value as ListSort)}
          bg="bg.panel"
          borderRadius="lg"
        >
          {SORTS.map((key) => (
            <option key={key} value={key}>
              {sortLabels[key]}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Flex>
  );
}

/** "Showing 20 of 23" and a Show more button. */
export function ShowMore({ shown, total, onMore }: { shown: number; total: number; onMore: () => void }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" align="center" gap="2" mt="4">
      <Text textStyle="sm" color="fg.muted">
        {t('campaigns.list.showing', { shown, total })}
      </Text>
      <Button size="sm" variant="outline" onClick={onMore}>
        {t('campaigns.list.showMore')}
      </Button>
    </Flex>
  );
}
