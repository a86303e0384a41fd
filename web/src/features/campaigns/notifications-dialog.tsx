import { Flex, Spinner, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { LuBell } from 'react-icons/lu';
import { DialogButton, DialogShell } from '../../components/dialog-shell.tsx';
import { errorMessage } from '../../lib/api.ts';
import { NotificationSettingsForm, type NotificationsTarget } from './notification-settings-form.tsx';
import { useNotificationSettings } from './use-notifications.ts';

// Issue 31 item 5 (decision 052): per campaign, a Discord channel webhook and/or a signed HTTPS endpoint,
// the events to send, "Send test" and the delivery log. The server validates and decides everything.

/** The card's "Notifications" button and its dialog. */
export function NotificationsButton({ campaign }: { campaign: NotificationsTarget }) {
  const { t } = useTranslation();
  return (
    <DialogButton
      buttonProps={{
        'aria-label': t('campaigns.notifications.buttonLabel', { name: campaign.name }),
        'data-notifications': '',
      }}
      dialog={(onClose) => <NotificationsDialog campaign={campaign} onClose={onClose} />}
    >
      <LuBell /> {t('campaigns.notifications.button')}
    </DialogButton>
  );
}

function NotificationsDialog({ campaign, onClose }: { campaign: NotificationsTarget; onClose: () => void }) {
  const settings = useNotificationSettings(campaign.id);
  const { t } = useTranslation();
  return (
    <DialogShell
      title={t('campaigns.notifications.title', { name: campaign.name })}
      closeLabel={t('common.close')}
      onClose={onClose}
      fullOnPhone
    >
      {settings.data ? (
        <NotificationSettingsForm campaign={campaign} saved={settings.data} />
      ) : settings.isError ? (
        <Text color="red.fg">{errorMessage(settings.error, t('campaigns.notifications.loadFailed'))}</Text>
      ) : (
        <Flex justify="center" py="8">
          <Spinner aria-label={t('campaigns.notifications.loading')} />
        </Flex>
      )}
    </DialogShell>
  );
}
