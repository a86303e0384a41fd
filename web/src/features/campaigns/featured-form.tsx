import { Stack } from '@chakra-ui/react';
import { CAMPAIGN_MESSAGES, PROMOTE_COST_COINS, submitServerSchema } from '@shared/campaign-schemas.ts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LuStar } from 'react-icons/lu';
import { toast } from '../../lib/toaster.tsx';
import { memberCostRows, SpendAndSubmit } from './cost-summary.tsx';
import { InviteLinkField, ServerNameField } from './form-fields.tsx';
import { TargetingFields, targetingOf } from './targeting-fields.tsx';
import type { SubmitFormProps } from './per-member-form.tsx';
import { useSubmitFeatured } from './use-submit-featured.ts';
import { useTranslation } from 'react-i18next';
import { formatWhole } from '../../lib/format.ts';
import { useLocale } from '../../lib/i18n.ts';
import { PROMOTION } from '@shared/campaign-kinds.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { firstSchemaProblem } from './validate.ts';

const FIELD_IDS = { name: 'featured-name', inviteLink: 'featured-invite' } as const;
type FeaturedField = keyof typeof FIELD_IDS;
const isField = (f: string | null): f is FeaturedField => f !== null && Object.hasOwn(FIELD_IDS, f);

/** Featured campaign: the server is created, then promoted (100 coins, 100 member slots). */
export function FeaturedForm({ balanceCents, onBotMissing, prefillName, prefillInvite }: SubmitFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [name, setName] = useState(prefillName ?? '');
  const [inviteLink, setInviteLink] = useState(prefillInvite ?? '');
  const [minAge, setMinAge] = useState('');
  const [language, setLanguage] = useState('');
  const navigate = useNavigate();
  const submit = useSubmitFeatured({
    onBotMissing,
    // On to the new campaign on My Campaigns (highlighted, with what happens next).
    onSuccess: (campaign) => void navigate(`/campaigns?new=${encodeURIComponent(campaign.id)}`),
  });
  const canAfford = balanceCents >= PROMOTE_COST_COINS * 100;
  const fields = useFieldErrors(FIELD_IDS);

  /** The spec's toast, plus the message on the field, which takes focus. */
  function fail(field: FeaturedField, title: string, description: string) {
    toast({ title, description, variant: 'destructive' });
    fields.show(field, description);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (name.trim() === '' || inviteLink.trim() === '') {
      fail(
        name.trim() === '' ? 'name' : 'inviteLink',
        t('submit.missingInformation'),
        CAMPAIGN_MESSAGES.missingInformation,
      );
      return;
    }
    if (!canAfford) {
      toast({
        title: t('submit.insufficientCoins'),
        description: CAMPAIGN_MESSAGES.promoteCost,
        variant: 'destructive',
      });
      return;
    }
    const targeting = targetingOf(minAge, language);
    const input = { name, inviteLink, isFeaturedIntent: true as const, targeting };
    const problem = firstSchemaProblem(submitServerSchema, input);
    if (problem) {
      fail(isField(problem.field) ? problem.field : 'name', t('submit.validationError'), problem.message);
      return;
    }
    fields.reset();
    submit.mutate({ name, inviteLink, targeting });
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('submit.featured.formLabel')}>
      <Stack gap="5">
        <ServerNameField {...fields.bind('name', name, setName)} />
        <InviteLinkField {...fields.bind('inviteLink', inviteLink, setInviteLink)} />
        <TargetingFields
          idPrefix="featured"
          minAge={minAge}
          language={language}
          onMinAge={setMinAge}
          onLanguage={setLanguage}
        />
        <SpendAndSubmit
          rows={[
            { label: t('submit.featured.placement'), value: t('submit.featured.topOfDiscover') },
            ...memberCostRows(t, PROMOTION.slots, 'featured', PROMOTE_COST_COINS),
          ]}
          balanceCents={balanceCents}
          costCents={PROMOTE_COST_COINS * 100}
          refusal={canAfford ? null : CAMPAIGN_MESSAGES.promoteCost}
          palette="gold"
          pending={submit.isPending}
          loadingText={t('submit.featured.promoting')}
        >
          <LuStar /> {t('submit.featured.submit', { coins: formatWhole(PROMOTE_COST_COINS, locale) })}
        </SpendAndSubmit>
      </Stack>
    </form>
  );
}
