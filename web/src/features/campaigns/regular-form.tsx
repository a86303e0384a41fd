import { Stack } from '@chakra-ui/react';
import { insufficientForSubmit, parseCampaignCoins, submitServerSchema } from '@shared/campaign-schemas.ts';
import { useState, type FormEvent } from 'react';
import { LuSend } from 'react-icons/lu';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toaster.tsx';
import { defaultSpend, memberCostRows, SpendAndSubmit } from './cost-summary.tsx';
import { TargetingFields, targetingOf } from './targeting-fields.tsx';
import { InviteLinkField, ServerNameField, WholeNumberField } from './form-fields.tsx';
import { useSubmitServer } from './use-submit-server.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { firstSchemaProblem } from './validate.ts';
import { useTranslation } from 'react-i18next';

const FIELD_IDS = {
  name: 'regular-name',
  inviteLink: 'regular-invite',
  coinReward: 'regular-coins',
} as const;
type RegularField = keyof typeof FIELD_IDS;
const isField = (f: string | null): f is RegularField => f !== null && Object.hasOwn(FIELD_IDS, f);

export interface SubmitFormProps {
  balanceCents: number;
  /** The balance as shown to the user, e.g. "12.50". */
  balanceText: string;
  onBotMissing: (inviteUrl: string) => void;
  /** The server picked above the form (issue 31 item 3): its name fills the name field. */
  prefillName?: string;
  /** The never-expiring invite our bot made for the picked server: it fills the invite field. */
  prefillInvite?: string;
}

/** Regular campaign: 1 coin per member slot, at least 3. */
export function RegularForm({
  balanceCents,
  balanceText,
  onBotMissing,
  prefillName,
  prefillInvite,
}: SubmitFormProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(prefillName ?? '');
  const [inviteLink, setInviteLink] = useState(prefillInvite ?? '');
  const [minAge, setMinAge] = useState('');
  const [language, setLanguage] = useState('');
  // Starts at what the balance pays for (10 at most), never at more.
  const [coins, setCoins] = useState(() => String(defaultSpend(balanceCents)));
  const navigate = useNavigate();
  const submit = useSubmitServer({
    onBotMissing,
    // On to the new campaign on My Campaigns (highlighted, with what happens next).
    onSuccess: (server) => void navigate(`/campaigns?new=${encodeURIComponent(server.id)}`),
  });
  const fields = useFieldErrors(FIELD_IDS);
  const parsed = parseCampaignCoins(coins);

  /** The spec's toast, plus the message on the field, which takes focus. */
  function fail(field: RegularField, title: string, description: string) {
    toast({ title, description, variant: 'destructive' });
    fields.show(field, description);
  }
  const members = parsed.ok ? parsed.coins : 0;
  // The cost against the balance, before Submit: an amount the balance cannot pay disables Submit.
  const unaffordable = parsed.ok && balanceCents < parsed.coins * 100;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // The spec's order: amount first, then balance, then the schema's first problem.
    if (!parsed.ok) {
      fail('coinReward', t('submit.validationError'), parsed.message);
      return;
    }
    if (balanceCents < parsed.coins * 100) {
      fail('coinReward', t('submit.insufficientCoins'), insufficientForSubmit(parsed.coins, balanceText));
      return;
    }
    const input = { name, inviteLink, coinReward: coins, targeting: targetingOf(minAge, language) };
    const problem = firstSchemaProblem(submitServerSchema, input);
    if (problem) {
      fail(isField(problem.field) ? problem.field : 'name', t('submit.validationError'), problem.message);
      return;
    }
    fields.reset();
    submit.mutate(input);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('submit.regular.formLabel')}>
      <Stack gap="5">
        <ServerNameField {...fields.bind('name', name, setName)} />
        <InviteLinkField {...fields.bind('inviteLink', inviteLink, setInviteLink)} />
        <WholeNumberField
          name="coinReward"
          label={t('submit.coinsToSpend')}
          {...fields.bind('coinReward', coins, setCoins)}
          helper={t('submit.regular.coinsHelper')}
        />
        <TargetingFields
          idPrefix="regular"
          minAge={minAge}
          language={language}
          onMinAge={setMinAge}
          onLanguage={setLanguage}
        />
        <SpendAndSubmit
          rows={memberCostRows(t, members, 'regular')}
          balanceCents={balanceCents}
          costCents={members * 100}
          refusal={unaffordable ? insufficientForSubmit(parsed.coins, balanceText) : null}
          pending={submit.isPending}
          loadingText={t('submit.submitting')}
        >
          <LuSend /> {t('submit.submitServer')}
        </SpendAndSubmit>
      </Stack>
    </form>
  );
}
