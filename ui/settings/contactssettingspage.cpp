#include "ui/settings/contactssettingspage.h"

#include "model/contacts/contact.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

namespace {
const QString kLocalExample = QStringLiteral("0532 123 45 67");
}

QString ContactsSettingsPage::callingCodeOf(QLocale::Territory territory)
{
    // The countries our users are likeliest to sell in (ITU-T E.164 assignments); the user types any
    // other code.
    struct Code
    {
        QLocale::Territory territory;
        int code;
    };
    static const Code codes[] = {
        {QLocale::Turkey, 90},
        {QLocale::Germany, 49},
        {QLocale::UnitedKingdom, 44},
        {QLocale::UnitedStates, 1},
        {QLocale::Canada, 1},
        {QLocale::France, 33},
        {QLocale::Netherlands, 31},
        {QLocale::Belgium, 32},
        {QLocale::Switzerland, 41},
        {QLocale::Austria, 43},
        {QLocale::Italy, 39},
        {QLocale::Spain, 34},
        {QLocale::Portugal, 351},
        {QLocale::Greece, 30},
        {QLocale::Cyprus, 357},
        {QLocale::Azerbaijan, 994},
        {QLocale::Georgia, 995},
        {QLocale::Armenia, 374},
        {QLocale::Russia, 7},
        {QLocale::Kazakhstan, 7},
        {QLocale::Ukraine, 380},
        {QLocale::Belarus, 375},
        {QLocale::Moldova, 373},
        {QLocale::Poland, 48},
        {QLocale::Romania, 40},
        {QLocale::Bulgaria, 359},
        {QLocale::Sweden, 46},
        {QLocale::Norway, 47},
        {QLocale::Denmark, 45},
        {QLocale::Finland, 358},
        {QLocale::Iceland, 354},
        {QLocale::Ireland, 353},
        {QLocale::Luxembourg, 352},
        {QLocale::Malta, 356},
        {QLocale::Czechia, 420},
        {QLocale::Slovakia, 421},
        {QLocale::Hungary, 36},
        {QLocale::Slovenia, 386},
        {QLocale::Croatia, 385},
        {QLocale::Serbia, 381},
        {QLocale::BosniaAndHerzegovina, 387},
        {QLocale::Macedonia, 389},
        {QLocale::Albania, 355},
        {QLocale::Lithuania, 370},
        {QLocale::Latvia, 371},
        {QLocale::Estonia, 372},
        {QLocale::Iran, 98},
        {QLocale::Iraq, 964},
        {QLocale::Syria, 963},
        {QLocale::Lebanon, 961},
        {QLocale::Israel, 972},
        {QLocale::Jordan, 962},
        {QLocale::SaudiArabia, 966},
        {QLocale::UnitedArabEmirates, 971},
        {QLocale::Qatar, 974},
        {QLocale::Kuwait, 965},
        {QLocale::Bahrain, 973},
        {QLocale::Oman, 968},
        {QLocale::Egypt, 20},
        {QLocale::Libya, 218},
        {QLocale::Tunisia, 216},
        {QLocale::Algeria, 213},
        {QLocale::Morocco, 212},
        {QLocale::Nigeria, 234},
        {QLocale::SouthAfrica, 27},
        {QLocale::Uzbekistan, 998},
        {QLocale::Turkmenistan, 993},
        {QLocale::Kyrgyzstan, 996},
        {QLocale::Pakistan, 92},
        {QLocale::India, 91},
        {QLocale::China, 86},
        {QLocale::Japan, 81},
        {QLocale::SouthKorea, 82},
        {QLocale::Indonesia, 62},
        {QLocale::Malaysia, 60},
        {QLocale::Mexico, 52},
        {QLocale::Brazil, 55},
        {QLocale::Argentina, 54},
        {QLocale::Australia, 61},
        {QLocale::NewZealand, 64},
    };
    for (const Code &c : codes) {
        if (c.territory == territory)
            return QString::number(c.code);
    }
    return {};
}

QString ContactsSettingsPage::countryName(const QLocale &locale)
{
    return locale.nativeTerritoryName().isEmpty() ? QLocale::territoryToString(locale.territory())
                                                  : locale.nativeTerritoryName();
}

ContactsSettingsPage::ContactsSettingsPage(const QString &callingCode, const QLocale &system, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("contactsSettingsPage"));
    auto *layout = new QVBoxLayout(this);
    auto *phones = new QGroupBox(tr("Phone numbers"), this);
    auto *form = new QFormLayout(phones);
    auto *intro = new QLabel(tr("Numbers written without + are read as numbers of this country and stored in their "
                                "international form, in the window, the API and incoming webhooks alike. Empty: every "
                                "number needs its leading +."),
                             phones);
    intro->setWordWrap(true);
    form->addRow(intro);

    auto *codeRow = new QHBoxLayout;
    auto *plus = new QLabel(QStringLiteral("+"), phones);
    m_code = new QLineEdit(callingCode, phones);
    m_code->setObjectName(QStringLiteral("callingCodeEdit"));
    m_code->setValidator(new QRegularExpressionValidator(ContactRules::callingCodePattern(), m_code));
    m_code->setMaximumWidth(m_code->fontMetrics().horizontalAdvance(QStringLiteral("99999")) + 16);
    m_code->setPlaceholderText(tr("none"));
    codeRow->addWidget(plus);
    codeRow->addWidget(m_code);
    const QString suggested = callingCodeOf(system.territory());
    m_suggest = new QPushButton(phones);
    m_suggest->setObjectName(QStringLiteral("suggestCallingCodeButton"));
    if (suggested.isEmpty()) {
        m_suggest->hide();
    } else {
        const QString country = countryName(system);
        m_suggest->setText(tr("Use %1 (+%2)").arg(country, suggested));
        connect(m_suggest, &QPushButton::clicked, this, [this, suggested] { m_code->setText(suggested); });
    }
    codeRow->addWidget(m_suggest);
    codeRow->addStretch();
    form->addRow(tr("Country calling code:"), codeRow);
    m_example = new QLabel(phones);
    m_example->setObjectName(QStringLiteral("callingCodeExample"));
    m_example->setWordWrap(true);
    form->addRow(m_example);
    m_saveButton = new QPushButton(tr("Save"), phones);
    m_saveButton->setObjectName(QStringLiteral("saveContactsSettingsButton"));
    form->addRow(m_saveButton);
    layout->addWidget(phones);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    layout->addStretch();

    connect(m_code, &QLineEdit::textChanged, this, [this] {
        m_status->clear();
        updateExample();
    });
    connect(m_saveButton, &QPushButton::clicked, this, &ContactsSettingsPage::save);
    updateExample();
}

void ContactsSettingsPage::updateExample()
{
    const QString code = m_code->text().trimmed();
    if (code.isEmpty()) {
        m_example->setText(
            tr("Example: %1 is refused; +90 532 123 45 67 is taken as written (a number with + is kept as typed).")
                .arg(kLocalExample));
        return;
    }
    m_example->setText(
        tr("Example: %1 is stored as %2.").arg(kLocalExample, ContactRules::toE164(kLocalExample, code)));
}

void ContactsSettingsPage::save()
{
    const QString code = m_code->text().trimmed();
    if (!code.isEmpty() && !ContactRules::isCallingCode(code)) {
        m_status->setText(tr("A country calling code has 1 to 3 digits, e.g. 90."));
        return;
    }
    QString error;
    if (m_save && !m_save(code, &error)) {
        m_status->setText(tr("Could not save: %1").arg(error));
        return;
    }
    m_status->setText(code.isEmpty() ? tr("Saved: phone numbers need their leading +.")
                                     : tr("Saved: numbers without + are read as +%1 numbers.").arg(code));
}
