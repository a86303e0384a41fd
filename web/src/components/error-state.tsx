import { Button, EmptyState, VStack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { RefreshIcon, TriangleAlertIcon } from './entry-icons.tsx';

export interface ErrorStateProps {
  title: string;
  description?: ReactNode;
  /** Shows a "Try again" button. */
  onRetry?: () => void;
  retryLabel?: string;
  /** Compact inside a card; the default fills a page section. */
  size?: 'sm' | 'md';
}

/** The one error state of the app: something failed to load, say so plainly and offer a retry. */
export function ErrorState({ title, description, onRetry, retryLabel, size = 'md' }: ErrorStateProps) {
  const { t } = useTranslation();
  return (
    <EmptyState.Root
      role="alert"
      size={size}
      borderWidth="1px"
      borderColor="red.muted"
      borderRadius="xl"
      bg="red.subtle/40"
      data-testid="error-state"
    >
      <EmptyState.Content>
        <EmptyState.Indicator color="red.fg">
          <TriangleAlertIcon />
        </EmptyState.Indicator>
        <VStack textAlign="center" gap="1">
          <EmptyState.Title>{title}</EmptyState.Title>
          {description ? (
            <EmptyState.Description color="fg.muted">{description}</EmptyState.Description>
          ) : null}
        </VStack>
        {onRetry ? (
          <Button size="sm" variant="outline" colorPalette="gray" onClick={onRetry}>
            <RefreshIcon />
            {retryLabel ?? t('common.tryAgain')}
          </Button>
        ) : null}
      </EmptyState.Content>
    </EmptyState.Root>
  );
}
