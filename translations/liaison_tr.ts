<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="tr_TR">
<context>
    <name>AiFeedbackButtons</name>
    <message>
        <source>Helpful</source>
        <translation>Yararlı</translation>
    </message>
    <message>
        <source>Not helpful</source>
        <translation>Yararlı değil</translation>
    </message>
    <message>
        <source>Why was it not helpful?</source>
        <translation>Neden yararlı değildi?</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>Yanlış</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>Eksik</translation>
    </message>
    <message>
        <source>Out of date</source>
        <translation>Güncel değil</translation>
    </message>
    <message>
        <source>Inappropriate</source>
        <translation>Uygunsuz</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Diğer</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>yanlış</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>eksik</translation>
    </message>
    <message>
        <source>out of date</source>
        <translation>güncel değil</translation>
    </message>
    <message>
        <source>inappropriate</source>
        <translation>uygunsuz</translation>
    </message>
    <message>
        <source>other</source>
        <translation>diğer</translation>
    </message>
    <message>
        <source>You marked it helpful</source>
        <translation>Yararlı olarak işaretlediniz</translation>
    </message>
    <message>
        <source>You marked it not helpful</source>
        <translation>Yararlı değil olarak işaretlediniz</translation>
    </message>
    <message>
        <source>You marked it not helpful: %1</source>
        <translation>Yararlı değil olarak işaretlediniz: %1</translation>
    </message>
    <message>
        <source>No feedback given yet</source>
        <translation>Henüz geri bildirim verilmedi</translation>
    </message>
    <message>
        <source>The answer was helpful</source>
        <translation>Yanıt yararlıydı</translation>
    </message>
    <message>
        <source>The answer was not helpful (the arrow: why)</source>
        <translation>Yanıt yararlı değildi (ok: nedeni)</translation>
    </message>
</context>
<context>
    <name>AmountEdit</name>
    <message>
        <source>Enter an amount.</source>
        <translation>Bir tutar yazın.</translation>
    </message>
    <message>
        <source>“%1” is not an amount: leave out “%2” and write digits as in %3.</source>
        <translation>“%1” bir tutar değil: “%2” olmadan, %3 gibi rakamlarla yazın.</translation>
    </message>
    <message>
        <source>“%1” is not an amount: a mark goes between digits, as in %2.</source>
        <translation>“%1” bir tutar değil: işaretler rakamların arasına gelir, %2 gibi.</translation>
    </message>
    <message>
        <source>“%1” is not an amount: group the digits in threes with one kind of mark, as in %2.</source>
        <translation>“%1” bir tutar değil: rakamları tek tür işaretle üçerli gruplayın, %2 gibi.</translation>
    </message>
    <message>
        <source>“%1” is ambiguous: write %2 (an amount has at most two decimals).</source>
        <translation>“%1” belirsiz: %2 yazın (bir tutarda en çok iki ondalık basamak olur).</translation>
    </message>
    <message>
        <source>“%1” is ambiguous: write %2 or %3.</source>
        <translation>“%1” belirsiz: %2 ya da %3 yazın.</translation>
    </message>
    <message>
        <source>“%1” has more than two decimals.</source>
        <translation>“%1” ikiden fazla ondalık basamak içeriyor.</translation>
    </message>
    <message>
        <source>An amount cannot be negative.</source>
        <translation>Tutar negatif olamaz.</translation>
    </message>
    <message>
        <source>“%1” is too large: at most %2.</source>
        <translation>“%1” çok büyük: en çok %2.</translation>
    </message>
    <message>
        <source>= %1</source>
        <comment>the amount a field understood, with its currency</comment>
        <translation>= %1</translation>
    </message>
</context>
<context>
    <name>ApiKeysPage</name>
    <message>
        <source>API keys let local tools call the Liaison API. A key is shown once, when it is created; Liaison keeps only a hash of it.</source>
        <translation>API anahtarları, yerel araçların Liaison API&apos;sini çağırmasını sağlar. Bir anahtar yalnızca oluşturulduğu anda bir kez gösterilir; Liaison anahtarın yalnızca özetini (hash) saklar.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Anahtar</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Kapsamlar</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Oluşturulma</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Son kullanım</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Create…</source>
        <translation>Oluştur…</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Geçersiz kıl</translation>
    </message>
    <message>
        <source>Could not read the API keys: %1</source>
        <translation>API anahtarları okunamadı: %1</translation>
    </message>
    <message>
        <source>never</source>
        <translation>hiç</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>Geçersiz kılındı</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Etkin</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>Geçersiz kılınma: %1</translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation>API anahtarını geçersiz kıl</translation>
    </message>
    <message>
        <source>Revoke the key &quot;%1&quot;? Tools that use it will be refused at once.</source>
        <translation>&quot;%1&quot; anahtarı geçersiz kılınsın mı? Bu anahtarı kullanan araçlar hemen reddedilir.</translation>
    </message>
    <message>
        <source>No API keys yet. Create one for each tool that uses the API, so that it can be revoked alone.</source>
        <translation>Henüz API anahtarı yok. API&apos;yi kullanan her araç için ayrı bir anahtar oluşturun; böylece tek başına geçersiz kılınabilir.</translation>
    </message>
</context>
<context>
    <name>AppSettings</name>
    <message>
        <source>Website visitor</source>
        <translation>Web sitesi ziyaretçisi</translation>
    </message>
</context>
<context>
    <name>AppearancePage</name>
    <message>
        <source>Appearance</source>
        <translation>Görünüm</translation>
    </message>
    <message>
        <source>A&amp;ppearance…</source>
        <translation>Görü&amp;nüm…</translation>
    </message>
    <message>
        <source>How the window looks. Following the desktop, Liaison turns dark and light with it.</source>
        <translation>Pencerenin görünümü. Masaüstünü izlerken Liaison onunla birlikte koyu ya da açık olur.</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Tema</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Açık</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Koyu</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>&amp;Tema:</translation>
    </message>
    <message>
        <source>The choice applies now but was not saved: %1</source>
        <translation>Seçim şimdi uygulandı ama kaydedilemedi: %1</translation>
    </message>
    <message>
        <source>Follow the desktop (dark now)</source>
        <translation>Masaüstünü izle (şu an koyu)</translation>
    </message>
    <message>
        <source>Follow the desktop (light now)</source>
        <translation>Masaüstünü izle (şu an açık)</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Dil</translation>
    </message>
    <message>
        <source>The system&apos;s language (%1)</source>
        <translation>Sistemin dili (%1)</translation>
    </message>
    <message>
        <source>A new language applies at the next start.</source>
        <translation>Yeni dil bir sonraki başlatmada uygulanır.</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Dil:</translation>
    </message>
    <message>
        <source>The language was not saved: %1</source>
        <translation>Dil kaydedilmedi: %1</translation>
    </message>
</context>
<context>
    <name>BackupPage</name>
    <message>
        <source>Last backup</source>
        <translation>Son yedek</translation>
    </message>
    <message>
        <source>Back up now</source>
        <translation>Şimdi yedekle</translation>
    </message>
    <message>
        <source>Automatic backups</source>
        <translation>Otomatik yedekler</translation>
    </message>
    <message>
        <source>Backups to keep</source>
        <translation>Saklanacak yedek sayısı</translation>
    </message>
    <message>
        <source>Backups to keep:</source>
        <translation>Saklanacak yedek sayısı:</translation>
    </message>
    <message>
        <source>While Liaison runs it makes one backup a day of the database and the uploaded files into the folder above, and deletes the oldest beyond this number. 0 turns the daily backup off. Changes take effect at the next start. To restore a backup, close Liaison and run: liaison restore FILE</source>
        <translation>Liaison çalışırken veritabanının ve yüklenen dosyaların günde bir yedeğini yukarıdaki klasöre alır ve bu sayıyı aşan en eski yedekleri siler. 0 günlük yedeği kapatır. Değişiklikler bir sonraki başlatmada geçerli olur. Bir yedeği geri yüklemek için Liaison&apos;ı kapatıp şunu çalıştırın: liaison restore DOSYA</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>This data directory uses a team&apos;s PostgreSQL database: back it up with pg_dump (&quot;liaison backup FILE&quot; prints the command to use).</source>
        <translation>Bu veri klasörü bir ekibin PostgreSQL veritabanını kullanıyor: onu pg_dump ile yedekleyin (&quot;liaison backup DOSYA&quot; kullanılacak komutu yazar).</translation>
    </message>
    <message>
        <source>Folder: %1 (backups in it: %2)</source>
        <translation>Klasör: %1 (içindeki yedekler: %2)</translation>
    </message>
    <message>
        <source>No backup yet.</source>
        <translation>Henüz yedek yok.</translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2, %3</translation>
    </message>
    <message>
        <source>Backing up…</source>
        <translation>Yedekleniyor…</translation>
    </message>
    <message>
        <source>an unknown error</source>
        <translation>bilinmeyen bir hata</translation>
    </message>
    <message>
        <source>The backup failed: %1</source>
        <translation>Yedekleme başarısız oldu: %1</translation>
    </message>
    <message>
        <source>Backed up into %1.</source>
        <translation>%1 dosyasına yedeklendi.</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Kaydedilemedi: %1</translation>
    </message>
    <message>
        <source>Saved. The new settings take effect at the next start.</source>
        <translation>Kaydedildi. Yeni ayarlar bir sonraki başlatmada geçerli olur.</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>Yedekler</translation>
    </message>
    <message>
        <source>&amp;Backups…</source>
        <translation>&amp;Yedekler…</translation>
    </message>
</context>
<context>
    <name>CampaignContactsPanel</name>
    <message>
        <source>Contact status</source>
        <translation>Kişi durumu</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Tüm durumlar</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Sonraki adım</translation>
    </message>
    <message>
        <source>Came from</source>
        <translation>Geldiği yer</translation>
    </message>
    <message>
        <source>Contacts of the campaign</source>
        <translation>Kampanyanın kişileri</translation>
    </message>
    <message>
        <source>Steps sent to the contact of the campaign&apos;s steps</source>
        <translation>Kampanyanın adımlarından kişiye gönderilenler</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>No contacts yet: they enter once the campaign runs, a drip&apos;s from its segment, a triggered one&apos;s as its event happens.</source>
        <translation>Henüz kişi yok: kampanya çalışınca girerler; adım adım kampanyaya segmentinden, tetiklenene olayı gerçekleştikçe.</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Adım</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gönderildi</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Açıldı</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Tıklandı</translation>
    </message>
    <message>
        <source>Steps sent to the contact</source>
        <translation>Kişiye gönderilen adımlar</translation>
    </message>
    <message>
        <source>Choose a contact to see the steps sent to it.</source>
        <translation>Gönderilen adımları görmek için bir kişi seçin.</translation>
    </message>
    <message>
        <source>(deleted contact)</source>
        <translation>(silinmiş kişi)</translation>
    </message>
    <message>
        <source>A member of the campaign&apos;s segment; entered %1</source>
        <translation>Kampanyanın segmentinden; giriş: %1</translation>
    </message>
    <message>
        <source>%1; entered %2</source>
        <translation>%1; giriş: %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Steps sent to %1</source>
        <translation>Gönderilen adımlar: %1</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Steps sent</source>
        <translation>Gönderilen adımlar</translation>
    </message>
    <message>
        <source>No step has been sent to this contact yet.</source>
        <translation>Bu kişiye henüz adım gönderilmedi.</translation>
    </message>
    <message>
        <source>Search contacts by name…</source>
        <translation>Kişilerde ada göre ara…</translation>
    </message>
    <message>
        <source>Search contacts by name</source>
        <translation>Kişilerde ada göre ara</translation>
    </message>
</context>
<context>
    <name>CampaignEditor</name>
    <message>
        <source>Ayşe</source>
        <translation>Ayşe</translation>
    </message>
    <message>
        <source>Yılmaz</source>
        <translation>Yılmaz</translation>
    </message>
    <message>
        <source>Örnek Ltd.</source>
        <translation>Örnek Ltd.</translation>
    </message>
    <message>
        <source>Purchasing manager</source>
        <translation>Satın alma müdürü</translation>
    </message>
    <message>
        <source>New campaign</source>
        <translation>Yeni kampanya</translation>
    </message>
    <message>
        <source>Campaign “%1”</source>
        <translation>“%1” kampanyası</translation>
    </message>
    <message>
        <source>e.g. November newsletter</source>
        <translation>ör. Kasım bülteni</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Ad</translation>
    </message>
    <message>
        <source>One message to the whole audience, now or at a set time</source>
        <translation>Tüm kitleye tek mesaj, hemen ya da belirlenen zamanda</translation>
    </message>
    <message>
        <source>A series of messages, each a set time after the one before</source>
        <translation>Her biri bir öncekinden belirli süre sonra giden mesaj dizisi</translation>
    </message>
    <message>
        <source>A series of messages that starts for a contact when something happens</source>
        <translation>Bir kişi için bir olay olduğunda başlayan mesaj dizisi</translation>
    </message>
    <message>
        <source>&amp;Type</source>
        <translation>&amp;Tür</translation>
    </message>
    <message>
        <source>&amp;Channel</source>
        <translation>&amp;Kanal</translation>
    </message>
    <message>
        <source>Choose a segment…</source>
        <translation>Bir segment seçin…</translation>
    </message>
    <message>
        <source>&amp;Audience</source>
        <translation>&amp;Kitle</translation>
    </message>
    <message>
        <source>Tag or stage</source>
        <translation>Etiket ya da aşama</translation>
    </message>
    <message>
        <source>Starts &amp;when</source>
        <translation>&amp;Başlama koşulu</translation>
    </message>
    <message>
        <source>Send at</source>
        <translation>Gönderim zamanı</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zamanlama</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Adımlar</translation>
    </message>
    <message>
        <source>Wait (hours)</source>
        <translation>Bekleme (saat)</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Konu</translation>
    </message>
    <message>
        <source>Add step</source>
        <translation>Adım ekle</translation>
    </message>
    <message>
        <source>Remove step</source>
        <translation>Adımı kaldır</translation>
    </message>
    <message>
        <source>&amp;Subject</source>
        <translation>&amp;Konu</translation>
    </message>
    <message>
        <source>an approved template&apos;s name</source>
        <translation>onaylı bir şablonun adı</translation>
    </message>
    <message>
        <source>Template language</source>
        <translation>Şablon dili</translation>
    </message>
    <message>
        <source>Te&amp;mplate</source>
        <translation>Şa&amp;blon</translation>
    </message>
    <message>
        <source>&amp;Message</source>
        <translation>&amp;Mesaj</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Önizleme</translation>
    </message>
    <message>
        <source>Double-click a field to insert it at the cursor. A fallback follows a bar: {{firstName|there}}.</source>
        <translation>İmlecin olduğu yere eklemek için alana çift tıklayın. Boşsa yazılacak değer dik çizgiden sonra gelir: {{firstName|dostum}}.</translation>
    </message>
    <message>
        <source>Merge fields</source>
        <translation>Birleştirme alanları</translation>
    </message>
    <message>
        <source>Insert</source>
        <translation>Ekle</translation>
    </message>
    <message>
        <source>Send this campaign to a few addresses only, to see it as they will. Test sends are not counted in the statistics. A new campaign is saved first.</source>
        <translation>Alıcıların göreceği gibi görmek için kampanyayı yalnızca birkaç adrese gönderin. Test gönderimleri istatistiklere sayılmaz. Yeni bir kampanya önce kaydedilir.</translation>
    </message>
    <message>
        <source>Test addresses</source>
        <translation>Test adresleri</translation>
    </message>
    <message>
        <source>addresses, separated by commas</source>
        <translation>virgülle ayrılmış adresler</translation>
    </message>
    <message>
        <source>Send test</source>
        <translation>Test gönder</translation>
    </message>
    <message>
        <source>Test send</source>
        <translation>Test gönderimi</translation>
    </message>
    <message>
        <source>Only a draft or scheduled campaign can be changed</source>
        <translation>Yalnızca taslak ya da zamanlanmış bir kampanya değiştirilebilir</translation>
    </message>
    <message>
        <source>HTML &amp;body</source>
        <translation>HTML &amp;gövde</translation>
    </message>
    <message>
        <source>the tag</source>
        <translation>etiket</translation>
    </message>
    <message>
        <source>the stage</source>
        <translation>aşama</translation>
    </message>
    <message>
        <source>Type at least one address.</source>
        <translation>En az bir adres yazın.</translation>
    </message>
    <message>
        <source>Not sent: the campaign could not be saved (see above).</source>
        <translation>Gönderilmedi: kampanya kaydedilemedi (yukarıya bakın).</translation>
    </message>
    <message numerus="yes">
        <source>A test is on its way to %n address(es).</source>
        <translation>
            <numerusform>Test %n adrese gönderiliyor.</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose who receives it: a segment of contacts.</source>
        <translation>Kimin alacağını seçin: bir kişi segmenti.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n contact(s) would receive it</source>
        <translation>
            <numerusform>%n kişi alacak</numerusform>
        </translation>
    </message>
    <message>
        <source>(of %1 in the segment; left out: %2)</source>
        <translation>(segmentteki %1 kişiden; dışarıda kalan: %2)</translation>
    </message>
    <message>
        <source>Filled in for %1, a contact of the audience.</source>
        <translation>Kitleden %1 için dolduruldu.</translation>
    </message>
    <message>
        <source>Filled in for a sample contact, %1.</source>
        <translation>Örnek bir kişi, %1 için dolduruldu.</translation>
    </message>
    <message>
        <source>The approved template “%1” is sent as WhatsApp has it.</source>
        <translation>Onaylı “%1” şablonu WhatsApp’taki hâliyle gönderilir.</translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation>Konu:</translation>
    </message>
    <message>
        <source>Sending hours</source>
        <translation>Gönderim saatleri</translation>
    </message>
    <message>
        <source>From hour</source>
        <translation>Başlangıç saati</translation>
    </message>
    <message>
        <source>:00</source>
        <translation>:00</translation>
    </message>
    <message>
        <source>To hour</source>
        <translation>Bitiş saati</translation>
    </message>
    <message>
        <source>Days</source>
        <translation>Günler</translation>
    </message>
    <message>
        <source>None chosen: every day</source>
        <translation>Hiçbiri seçilmezse her gün</translation>
    </message>
    <message>
        <source>{{1}}; {{2}}; … e.g. {{firstName|there}}; November</source>
        <translation>{{1}}; {{2}}; … örn. {{firstName|Müşterimiz}}; Kasım</translation>
    </message>
    <message>
        <source>Template &amp;values</source>
        <translation>Şablon &amp;değerleri</translation>
    </message>
    <message>
        <source>The approved template “%1” is sent with %2.</source>
        <translation>Onaylı “%1” şablonu şu değerlerle gönderilir: %2.</translation>
    </message>
</context>
<context>
    <name>CampaignRecipientsPanel</name>
    <message>
        <source>Search by address or name…</source>
        <translation>Adres ya da ada göre ara…</translation>
    </message>
    <message>
        <source>Search recipients</source>
        <translation>Alıcılarda ara</translation>
    </message>
    <message>
        <source>Recipient status</source>
        <translation>Alıcı durumu</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Tüm durumlar</translation>
    </message>
    <message>
        <source>Test sends</source>
        <translation>Test gönderimleri</translation>
    </message>
    <message>
        <source>Show the test sends instead of the audience</source>
        <translation>Kitle yerine test gönderimlerini göster</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adres</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gönderildi</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Açıldı</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Tıklandı</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Hata</translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation>Alıcılar</translation>
    </message>
    <message>
        <source>No recipients here yet: the audience is taken when the campaign starts.</source>
        <translation>Henüz alıcı yok: kitle, kampanya başladığında belirlenir.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>hard</source>
        <translation>kalıcı</translation>
    </message>
    <message>
        <source>soft</source>
        <translation>geçici</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Adım</translation>
    </message>
</context>
<context>
    <name>CampaignStatsPanel</name>
    <message>
        <source>Audience</source>
        <translation>Kitle</translation>
    </message>
    <message>
        <source>The contacts of the frozen audience, skipped ones included</source>
        <translation>Sabitlenen kitledeki kişiler, atlananlar dahil</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gönderilen</translation>
    </message>
    <message>
        <source>Handed to the provider</source>
        <translation>Sağlayıcıya teslim edilen</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Ulaşan</translation>
    </message>
    <message>
        <source>Sent and not bounced (SMS, WhatsApp: reported delivered)</source>
        <translation>Gönderilip geri dönmeyen (SMS, WhatsApp: ulaştığı bildirilen)</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Açan</translation>
    </message>
    <message>
        <source>Opened by a person or clicked; mail providers&apos; proxies apart</source>
        <translation>Bir kişinin açtığı ya da tıkladığı; e-posta sağlayıcılarının vekil sunucuları hariç</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Tıklayan</translation>
    </message>
    <message>
        <source>Clicked a link</source>
        <translation>Bir bağlantıya tıklayan</translation>
    </message>
    <message>
        <source>Bounced</source>
        <translation>Geri dönen</translation>
    </message>
    <message>
        <source>Refused by the receiving server, for good or for now</source>
        <translation>Alıcı sunucunun kalıcı ya da geçici olarak reddettiği</translation>
    </message>
    <message>
        <source>Unsubscribed</source>
        <translation>Abonelikten çıkan</translation>
    </message>
    <message>
        <source>Unsubscribed through this campaign</source>
        <translation>Bu kampanya üzerinden abonelikten çıkan</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Atlanan</translation>
    </message>
    <message>
        <source>Left out: no address, unsubscribed, bounced before or a duplicate address</source>
        <translation>Dışarıda kalan: adresi yok, abonelikten çıkmış, daha önce geri dönmüş ya da yinelenen adres</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Başarısız</translation>
    </message>
    <message>
        <source>Could not be sent</source>
        <translation>Gönderilemeyen</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Bekleyen</translation>
    </message>
    <message>
        <source>Not sent yet</source>
        <translation>Henüz gönderilmeyen</translation>
    </message>
    <message>
        <source>Delivery rate</source>
        <translation>Ulaşma oranı</translation>
    </message>
    <message>
        <source>Delivered of sent</source>
        <translation>Gönderilenlerden ulaşanlar</translation>
    </message>
    <message>
        <source>Open rate</source>
        <translation>Açılma oranı</translation>
    </message>
    <message>
        <source>Opened of delivered</source>
        <translation>Ulaşanlardan açanlar</translation>
    </message>
    <message>
        <source>Click rate</source>
        <translation>Tıklama oranı</translation>
    </message>
    <message>
        <source>Clicked of delivered</source>
        <translation>Ulaşanlardan tıklayanlar</translation>
    </message>
    <message>
        <source>Funnel</source>
        <translation>Dönüşüm hunisi</translation>
    </message>
    <message>
        <source>Choose a campaign to see its statistics.</source>
        <translation>İstatistiklerini görmek için bir kampanya seçin.</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Skipped: %1.</source>
        <translation>Atlanan: %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n open(s) by mail providers&apos; proxies not counted.</source>
        <translation>
            <numerusform>E-posta sağlayıcılarının vekil sunucularından gelen %n açılma sayılmadı.</numerusform>
        </translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>Nedeni: %1</translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation>Alıcılar</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1.</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Mesajlar</translation>
    </message>
    <message>
        <source>One message per contact and step released, skipped ones included</source>
        <translation>Her kişiye ve gönderime çıkan her adıma bir mesaj, atlananlar dahil</translation>
    </message>
</context>
<context>
    <name>CampaignText</name>
    <message>
        <source>Draft</source>
        <translation>Taslak</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>Zamanlandı</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>Gönderiliyor</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Duraklatıldı</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gönderildi</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Başarısız</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>İptal edildi</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>SMS</source>
        <translation>SMS</translation>
    </message>
    <message>
        <source>WhatsApp</source>
        <translation>WhatsApp</translation>
    </message>
    <message>
        <source>Broadcast</source>
        <translation>Toplu gönderim</translation>
    </message>
    <message>
        <source>Drip</source>
        <translation>Adım adım</translation>
    </message>
    <message>
        <source>Triggered</source>
        <translation>Tetiklenen</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Bekliyor</translation>
    </message>
    <message>
        <source>Sending</source>
        <comment>a recipient</comment>
        <translation>Gönderiliyor</translation>
    </message>
    <message>
        <source>Sent</source>
        <comment>a recipient</comment>
        <translation>Gönderildi</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Ulaştı</translation>
    </message>
    <message>
        <source>Bounced</source>
        <translation>Geri döndü</translation>
    </message>
    <message>
        <source>Failed</source>
        <comment>a recipient</comment>
        <translation>Başarısız</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Atlandı</translation>
    </message>
    <message>
        <source>no address</source>
        <translation>adresi yok</translation>
    </message>
    <message>
        <source>unsubscribed</source>
        <translation>abonelikten çıkmış</translation>
    </message>
    <message>
        <source>bounced before</source>
        <translation>daha önce geri dönmüş</translation>
    </message>
    <message>
        <source>duplicate address</source>
        <translation>yinelenen adres</translation>
    </message>
    <message>
        <source>Unsubscribed</source>
        <translation>Abonelikten çıktı</translation>
    </message>
    <message>
        <source>Hard bounce</source>
        <translation>Kalıcı geri dönüş</translation>
    </message>
    <message>
        <source>Added by hand</source>
        <translation>Elle eklendi</translation>
    </message>
    <message>
        <source>A contact is created</source>
        <translation>Bir kişi oluşturulduğunda</translation>
    </message>
    <message>
        <source>A contact gets a tag</source>
        <translation>Bir kişiye etiket eklendiğinde</translation>
    </message>
    <message>
        <source>A deal moves to a stage</source>
        <translation>Bir fırsat bir aşamaya geçtiğinde</translation>
    </message>
    <message>
        <source>A message is received</source>
        <translation>Bir mesaj alındığında</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%%1</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Çalışıyor</translation>
    </message>
    <message>
        <source>Active</source>
        <comment>a drip&apos;s contact</comment>
        <translation>Etkin</translation>
    </message>
    <message>
        <source>Completed</source>
        <comment>a drip&apos;s contact</comment>
        <translation>Tamamladı</translation>
    </message>
    <message>
        <source>Left</source>
        <comment>a drip&apos;s contact</comment>
        <translation>Ayrıldı</translation>
    </message>
    <message>
        <source>address bounced</source>
        <translation>adresi geri döndü</translation>
    </message>
    <message>
        <source>replied</source>
        <translation>yanıt verdi</translation>
    </message>
    <message>
        <source>deal won</source>
        <translation>fırsat kazanıldı</translation>
    </message>
    <message>
        <source>contact deleted</source>
        <translation>kişi silindi</translation>
    </message>
    <message>
        <source>campaign cancelled</source>
        <translation>iptal edildi</translation>
    </message>
    <message>
        <source>Audience</source>
        <translation>Kitle</translation>
    </message>
    <message>
        <source>New contact</source>
        <translation>Yeni kişi</translation>
    </message>
    <message>
        <source>Tag added</source>
        <translation>Etiket eklendi</translation>
    </message>
    <message>
        <source>Deal stage</source>
        <translation>Fırsat aşaması</translation>
    </message>
    <message>
        <source>Message received</source>
        <translation>Gelen mesaj</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>Adım %1</translation>
    </message>
    <message>
        <source>Contacts: %1 entered, %2 active, %3 completed, %4 left</source>
        <translation>Kişiler: %1 girdi, %2 etkin, %3 tamamladı, %4 ayrıldı</translation>
    </message>
</context>
<context>
    <name>CampaignsView</name>
    <message>
        <source>Campaigns</source>
        <translation>Kampanyalar</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Yeni…</translation>
    </message>
    <message>
        <source>Write a new campaign</source>
        <translation>Yeni bir kampanya yazın</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Düzenle…</translation>
    </message>
    <message>
        <source>Change the campaign (a draft or a scheduled one)</source>
        <translation>Kampanyayı değiştirin (taslak ya da zamanlanmış olanı)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Delete the campaign (a draft or a scheduled one)</source>
        <translation>Kampanyayı silin (taslak ya da zamanlanmış olanı)</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>Şimdi gönder</translation>
    </message>
    <message>
        <source>Start sending to the audience now</source>
        <translation>Kitleye göndermeye hemen başlayın</translation>
    </message>
    <message>
        <source>Schedule…</source>
        <translation>Zamanla…</translation>
    </message>
    <message>
        <source>Choose when it is sent</source>
        <translation>Ne zaman gönderileceğini seçin</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Duraklat</translation>
    </message>
    <message>
        <source>Stop sending for now; what is on its way finishes</source>
        <translation>Göndermeyi şimdilik durdurun; yolda olanlar tamamlanır</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Sürdür</translation>
    </message>
    <message>
        <source>Go on where it stopped</source>
        <translation>Kaldığı yerden devam edin</translation>
    </message>
    <message>
        <source>Cancel campaign</source>
        <translation>Kampanyayı iptal et</translation>
    </message>
    <message>
        <source>Stop for good: those not sent to yet get nothing</source>
        <translation>Tamamen durdurun: henüz gönderilmeyenlere hiçbir şey gitmez</translation>
    </message>
    <message>
        <source>Retry failed</source>
        <translation>Başarısızları yinele</translation>
    </message>
    <message>
        <source>Send again to the recipients whose message failed or bounced for now</source>
        <translation>Mesajı başarısız olan ya da geçici olarak geri dönen alıcılara yeniden gönderin</translation>
    </message>
    <message>
        <source>Search campaigns…</source>
        <translation>Kampanyalarda ara…</translation>
    </message>
    <message>
        <source>Search campaigns</source>
        <translation>Kampanyalarda ara</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Tüm durumlar</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>Every channel</source>
        <translation>Tüm kanallar</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Göster:</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tür</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>İlerleme</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Ulaşan</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>Açan</translation>
    </message>
    <message>
        <source>Clicked</source>
        <translation>Tıklayan</translation>
    </message>
    <message>
        <source>Scheduled / started</source>
        <translation>Zamanlama / başlangıç</translation>
    </message>
    <message>
        <source>Delivery rate: delivered of sent</source>
        <translation>Ulaşma oranı: gönderilenlerden ulaşanlar</translation>
    </message>
    <message>
        <source>Open rate: opened of delivered</source>
        <translation>Açılma oranı: ulaşanlardan açanlar</translation>
    </message>
    <message>
        <source>Click rate: clicked of delivered</source>
        <translation>Tıklama oranı: ulaşanlardan tıklayanlar</translation>
    </message>
    <message>
        <source>No campaigns yet. Write one to a segment of your contacts.</source>
        <translation>Henüz kampanya yok. Kişilerinizin bir segmentine bir tane yazın.</translation>
    </message>
    <message>
        <source>New campaign…</source>
        <translation>Yeni kampanya…</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>İstatistikler</translation>
    </message>
    <message>
        <source>Recipients</source>
        <translation>Alıcılar</translation>
    </message>
    <message>
        <source>Unsubscribe list</source>
        <translation>Abonelikten çıkanlar</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>No campaign matches the search or the filters.</source>
        <translation>Aramaya ya da filtrelere uyan kampanya yok.</translation>
    </message>
    <message>
        <source>Clear the search and filters</source>
        <translation>Aramayı ve filtreleri temizle</translation>
    </message>
    <message>
        <source>Showing the newest %1 of %2 campaigns: search or filter to find the others.</source>
        <translation>%2 kampanyanın en yeni %1 tanesi gösteriliyor: diğerlerini bulmak için arayın ya da filtreleyin.</translation>
    </message>
    <message>
        <source>View…</source>
        <translation>Görüntüle…</translation>
    </message>
    <message>
        <source>Campaign saved.</source>
        <translation>Kampanya kaydedildi.</translation>
    </message>
    <message>
        <source>Delete campaign</source>
        <translation>Kampanyayı sil</translation>
    </message>
    <message>
        <source>Delete the campaign “%1”?</source>
        <translation>“%1” kampanyası silinsin mi?</translation>
    </message>
    <message>
        <source>Campaign “%1” deleted.</source>
        <translation>“%1” kampanyası silindi.</translation>
    </message>
    <message>
        <source>Start “%1” now? Each contact of its audience goes through its steps.</source>
        <translation>“%1” şimdi başlatılsın mı? Kitlesindeki her kişi adımlarından tek tek geçer.</translation>
    </message>
    <message numerus="yes">
        <source>Send “%1” now to %n contact(s) by %2? This cannot be undone.</source>
        <translation>
            <numerusform>“%1” şimdi %2 ile %n kişiye gönderilsin mi? Bu geri alınamaz.</numerusform>
        </translation>
    </message>
    <message>
        <source>Send “%1” now? This cannot be undone.</source>
        <translation>“%1” şimdi gönderilsin mi? Bu geri alınamaz.</translation>
    </message>
    <message>
        <source>Send campaign</source>
        <translation>Kampanyayı gönder</translation>
    </message>
    <message>
        <source>“%1” is sending.</source>
        <translation>“%1” gönderiliyor.</translation>
    </message>
    <message>
        <source>Schedule “%1”</source>
        <translation>“%1” kampanyasını zamanla</translation>
    </message>
    <message>
        <source>Send at</source>
        <translation>Gönderim zamanı</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zamanla</translation>
    </message>
    <message>
        <source>Don&apos;t schedule</source>
        <translation>Zamanlamayı kaldır</translation>
    </message>
    <message>
        <source>“%1” is a draft again.</source>
        <translation>“%1” yeniden taslak.</translation>
    </message>
    <message>
        <source>“%1” is sent at %2.</source>
        <translation>“%1” %2 tarihinde gönderilecek.</translation>
    </message>
    <message>
        <source>“%1” is paused.</source>
        <translation>“%1” duraklatıldı.</translation>
    </message>
    <message>
        <source>“%1” is sending again.</source>
        <translation>“%1” yeniden gönderiliyor.</translation>
    </message>
    <message>
        <source>Cancel “%1”? Those it has not sent to yet get nothing, and it cannot be started again.</source>
        <translation>“%1” iptal edilsin mi? Henüz gönderilmeyenlere hiçbir şey gitmez ve kampanya yeniden başlatılamaz.</translation>
    </message>
    <message>
        <source>“%1” is cancelled.</source>
        <translation>“%1” iptal edildi.</translation>
    </message>
    <message numerus="yes">
        <source>%n recipient(s) will be sent to again.</source>
        <translation>
            <numerusform>%n alıcıya yeniden gönderilecek.</numerusform>
        </translation>
    </message>
    <message>
        <source>Sending or running</source>
        <translation>Gönderiliyor ya da çalışıyor</translation>
    </message>
    <message>
        <source>%1 active / %2 entered</source>
        <translation>%1 etkin / %2 kişi</translation>
    </message>
    <message>
        <source>Sent of the audience; a drip or triggered campaign: its contacts still in it of those who entered</source>
        <translation>Kitleden gönderilenler; adım adım ya da tetiklenen kampanyada: girenlerden hâlâ içinde olanlar</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kişiler</translation>
    </message>
    <message>
        <source>Where each contact of a drip or triggered campaign is, and the steps it was sent</source>
        <translation>Adım adım ya da tetiklenen kampanyada her kişinin nerede olduğu ve ona gönderilen adımlar</translation>
    </message>
    <message>
        <source>“%1” is running.</source>
        <translation>“%1” çalışıyor.</translation>
    </message>
    <message>
        <source>“%1” is running again.</source>
        <translation>“%1” yeniden çalışıyor.</translation>
    </message>
</context>
<context>
    <name>ChannelsPage</name>
    <message>
        <source>Channels</source>
        <translation>Kanallar</translation>
    </message>
    <message>
        <source>Connect the messaging channels. Tokens and secrets are kept in the system keychain; changes take effect at the next start.</source>
        <translation>Mesajlaşma kanallarını bağlayın. Belirteçler ve gizli anahtarlar sistemin anahtar zincirinde saklanır; değişiklikler bir sonraki başlatmada geçerli olur.</translation>
    </message>
    <message>
        <source>WhatsApp Cloud API</source>
        <translation>WhatsApp Cloud API</translation>
    </message>
    <message>
        <source>Telegram bot</source>
        <translation>Telegram botu</translation>
    </message>
    <message>
        <source>Instagram messaging</source>
        <translation>Instagram mesajlaşma</translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation>API temel URL&apos;si</translation>
    </message>
    <message>
        <source>Phone number ID</source>
        <translation>Telefon numarası kimliği</translation>
    </message>
    <message>
        <source>Access token</source>
        <translation>Erişim belirteci</translation>
    </message>
    <message>
        <source>App secret</source>
        <translation>Uygulama gizli anahtarı</translation>
    </message>
    <message>
        <source>Verify token</source>
        <translation>Doğrulama belirteci</translation>
    </message>
    <message>
        <source>Unlimited</source>
        <translation>Sınırsız</translation>
    </message>
    <message>
        <source> messages/s</source>
        <translation> mesaj/sn</translation>
    </message>
    <message>
        <source>Send per second</source>
        <translation>Saniyede gönderim</translation>
    </message>
    <message>
        <source>Bot token</source>
        <translation>Bot belirteci</translation>
    </message>
    <message>
        <source>from @BotFather</source>
        <translation>@BotFather&apos;dan alınır</translation>
    </message>
    <message>
        <source>Long polling (works behind NAT)</source>
        <translation>Uzun yoklama (NAT arkasında da çalışır)</translation>
    </message>
    <message>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <source>Receive by</source>
        <translation>Mesaj alma yöntemi</translation>
    </message>
    <message>
        <source>Webhook secret token</source>
        <translation>Webhook gizli belirteci</translation>
    </message>
    <message>
        <source>A-Z, a-z, 0-9, _ and -</source>
        <translation>A-Z, a-z, 0-9, _ ve -</translation>
    </message>
    <message>
        <source>Register webhook at</source>
        <translation>Webhook&apos;un kaydedileceği adres</translation>
    </message>
    <message>
        <source>optional: our public https URL, registered with setWebhook at start</source>
        <translation>isteğe bağlı: sunucumuzun herkese açık https URL&apos;si; başlatmada setWebhook ile kaydedilir</translation>
    </message>
    <message>
        <source>Account ID</source>
        <translation>Hesap kimliği</translation>
    </message>
    <message>
        <source>Webhook URL for the provider</source>
        <translation>Sağlayıcıya verilecek webhook URL&apos;si</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Bağlantıyı test et</translation>
    </message>
    <message>
        <source>the API server is not running</source>
        <translation>API sunucusu çalışmıyor</translation>
    </message>
    <message>
        <source>Not configured</source>
        <translation>Yapılandırılmadı</translation>
    </message>
    <message>
        <source>Provider down: %1</source>
        <translation>Sağlayıcıya ulaşılamıyor: %1</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>yanıt yok</translation>
    </message>
    <message>
        <source>Configured</source>
        <translation>Yapılandırıldı</translation>
    </message>
    <message>
        <source>Testing is not available here.</source>
        <translation>Test burada kullanılamıyor.</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Test ediliyor…</translation>
    </message>
    <message>
        <source>Connection works: %1</source>
        <translation>Bağlantı çalışıyor: %1</translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>Bağlantı kurulamadı: %1</translation>
    </message>
    <message>
        <source>&amp;Channels…</source>
        <translation>&amp;Kanallar…</translation>
    </message>
</context>
<context>
    <name>ContactDetailPane</name>
    <message>
        <source>Select a contact to see its details.</source>
        <translation>Ayrıntılarını görmek için bir kişi seçin.</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-posta:</translation>
    </message>
    <message>
        <source>Phone:</source>
        <translation>Telefon:</translation>
    </message>
    <message>
        <source>Company:</source>
        <translation>Şirket:</translation>
    </message>
    <message>
        <source>Position:</source>
        <translation>Unvan:</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>Adres:</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Kaynak:</translation>
    </message>
    <message>
        <source>Lead score:</source>
        <translation>Potansiyel müşteri puanı:</translation>
    </message>
    <message>
        <source>Created:</source>
        <translation>Oluşturulma:</translation>
    </message>
    <message>
        <source>Updated:</source>
        <translation>Güncellenme:</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiketler</translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation>Etiketi kaldır</translation>
    </message>
    <message>
        <source>New tags, comma separated</source>
        <translation>Yeni etiketler, virgülle ayırarak</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>Etiket ekle</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Notlar</translation>
    </message>
    <message>
        <source>Write a note…</source>
        <translation>Bir not yazın…</translation>
    </message>
    <message>
        <source>Add note</source>
        <translation>Not ekle</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Görevler</translation>
    </message>
    <message>
        <source>Select and press Remove tag (or Delete) to remove</source>
        <translation>Kaldırmak için seçip Etiketi kaldır düğmesine (veya Delete tuşuna) basın</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source> — due %1</source>
        <translation> — son tarih: %1</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source>done</source>
        <translation>tamamlandı</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>iptal edildi</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>Geçmiş</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Fırsatlar</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Konuşmalar</translation>
    </message>
    <message>
        <source>Contact created%1</source>
        <translation>Kişi oluşturuldu%1</translation>
    </message>
    <message>
        <source> (from %1)</source>
        <translation> (kaynak: %1)</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Not: %1</translation>
    </message>
    <message>
        <source>%1 — %2 — %3</source>
        <translation>%1 — %2 — %3</translation>
    </message>
    <message>
        <source> · closes %1</source>
        <translation> · kapanış: %1</translation>
    </message>
    <message>
        <source>Double-click to open the deal</source>
        <translation>Fırsatı açmak için çift tıklayın</translation>
    </message>
    <message>
        <source>Deal created: %1</source>
        <translation>Fırsat oluşturuldu: %1</translation>
    </message>
    <message>
        <source>%1 moved from %2 to %3</source>
        <translation>%1: %2 aşamasından %3 aşamasına taşındı</translation>
    </message>
    <message>
        <source>Call (%1): %2</source>
        <translation>Arama (%1): %2</translation>
    </message>
    <message>
        <source>Meeting (%1): %2</source>
        <translation>Toplantı (%1): %2</translation>
    </message>
    <message>
        <source>E-mail (%1): %2</source>
        <translation>E-posta (%1): %2</translation>
    </message>
    <message>
        <source>Note on %1: %2</source>
        <translation>%1 notu: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n okunmamış</numerusform>
        </translation>
    </message>
    <message>
        <source>Double-click to open the conversation in the inbox</source>
        <translation>Konuşmayı gelen kutusunda açmak için çift tıklayın</translation>
    </message>
    <message>
        <source>Conversation started on %1</source>
        <translation>%1 üzerinden konuşma başladı</translation>
    </message>
    <message>
        <source>Message sent on %1: %2</source>
        <translation>%1 üzerinden gönderilen mesaj: %2</translation>
    </message>
    <message>
        <source>Message received on %1: %2</source>
        <translation>%1 üzerinden gelen mesaj: %2</translation>
    </message>
    <message>
        <source>Task created: %1</source>
        <translation>Görev oluşturuldu: %1</translation>
    </message>
    <message>
        <source>Task done: %1</source>
        <translation>Görev tamamlandı: %1</translation>
    </message>
    <message>
        <source>%1 started in %2</source>
        <translation>%1, %2 aşamasında başladı</translation>
    </message>
    <message>
        <source>Nothing has happened with this contact yet.</source>
        <translation>Bu kişiyle henüz bir şey olmadı.</translation>
    </message>
    <message>
        <source>No notes yet: write one below.</source>
        <translation>Henüz not yok: aşağıya bir not yazın.</translation>
    </message>
    <message>
        <source>Note</source>
        <comment>a short tab title</comment>
        <translation>Not</translation>
    </message>
    <message>
        <source>Deal</source>
        <comment>a short tab title</comment>
        <translation>Fırsat</translation>
    </message>
    <message>
        <source>Chat</source>
        <comment>a short tab title</comment>
        <translation>Sohbet</translation>
    </message>
    <message>
        <source>Task</source>
        <comment>a short tab title</comment>
        <translation>Görev</translation>
    </message>
    <message>
        <source>New deal…</source>
        <translation>Yeni fırsat…</translation>
    </message>
    <message>
        <source>A deal with this contact, yours unless you give it to someone else</source>
        <translation>Bu kişiyle bir fırsat; başkasına vermedikçe sizin</translation>
    </message>
    <message>
        <source>Send a message</source>
        <translation>Mesaj gönder</translation>
    </message>
    <message>
        <source>New task…</source>
        <translation>Yeni görev…</translation>
    </message>
    <message>
        <source>A task about this contact, with a reminder if you want one</source>
        <translation>Bu kişiyle ilgili bir görev; isterseniz hatırlatıcıyla</translation>
    </message>
    <message>
        <source>No deals with this contact yet: New deal adds one.</source>
        <translation>Bu kişiyle henüz fırsat yok: Yeni fırsat ile ekleyin.</translation>
    </message>
    <message>
        <source>No conversations yet. Messages from this contact&apos;s phone or e-mail appear here; Send a message starts one.</source>
        <translation>Henüz konuşma yok. Bu kişinin telefonundan ya da e-postasından gelen mesajlar burada görünür; Mesaj gönder ile bir konuşma başlatın.</translation>
    </message>
    <message>
        <source>No tasks for this contact yet: New task adds one, with a reminder.</source>
        <translation>Bu kişi için henüz görev yok: Yeni görev ile hatırlatıcılı bir görev ekleyin.</translation>
    </message>
    <message>
        <source>WhatsApp to %1</source>
        <translation>WhatsApp: %1</translation>
    </message>
    <message>
        <source>No channel to write on: add a phone number for WhatsApp</source>
        <translation>Yazılacak kanal yok: WhatsApp için bir telefon numarası ekleyin</translation>
    </message>
    <message>
        <source>Double-click to open the task</source>
        <translation>Görevi açmak için çift tıklayın</translation>
    </message>
    <message>
        <source>New tags</source>
        <translation>Yeni etiketler</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>Etiketler:</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Ayrıntılar</translation>
    </message>
    <message>
        <source>Address, source, lead score and dates</source>
        <translation>Adres, kaynak, potansiyel müşteri puanı ve tarihler</translation>
    </message>
</context>
<context>
    <name>ContactDialog</name>
    <message>
        <source>New contact</source>
        <translation>Yeni kişi</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>Düzenle: %1</translation>
    </message>
    <message>
        <source>First name:</source>
        <translation>Ad:</translation>
    </message>
    <message>
        <source>Last name:</source>
        <translation>Soyad:</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-posta:</translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation>ad@example.com</translation>
    </message>
    <message>
        <source>Phone:</source>
        <translation>Telefon:</translation>
    </message>
    <message>
        <source>+90 532 123 45 67</source>
        <translation>+90 532 123 45 67</translation>
    </message>
    <message>
        <source>Company:</source>
        <translation>Şirket:</translation>
    </message>
    <message>
        <source>Position:</source>
        <translation>Unvan:</translation>
    </message>
    <message>
        <source>Street:</source>
        <translation>Cadde/Sokak:</translation>
    </message>
    <message>
        <source>City:</source>
        <translation>Şehir:</translation>
    </message>
    <message>
        <source>Country:</source>
        <translation>Ülke:</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>Etiketler:</translation>
    </message>
    <message>
        <source>comma separated, e.g. vip, istanbul</source>
        <translation>virgülle ayırın, ör. vip, istanbul</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Kaynak:</translation>
    </message>
    <message>
        <source>Lead score:</source>
        <translation>Potansiyel müşteri puanı:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>The contact could not be saved: %1</source>
        <translation>Kişi kaydedilemedi: %1</translation>
    </message>
    <message>
        <source>another contact</source>
        <translation>başka bir kişi</translation>
    </message>
    <message>
        <source>This phone number already belongs to %1.</source>
        <translation>Bu telefon numarası zaten %1 kişisine ait.</translation>
    </message>
    <message>
        <source>This e-mail address already belongs to %1.</source>
        <translation>Bu e-posta adresi zaten %1 kişisine ait.</translation>
    </message>
    <message>
        <source>already belongs to %1</source>
        <translation>zaten %1 kişisine ait</translation>
    </message>
    <message>
        <source>needs its country code (+90 532 …), or set the country of local numbers in Settings → Contacts</source>
        <translation>ülke kodu gerekli (+90 532 …) ya da yerel numaraların ülkesini Ayarlar → Kişiler&apos;de seçin</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>ContactTableModel</name>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Şirket</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiketler</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Oluşturulma</translation>
    </message>
</context>
<context>
    <name>ContactsSettingsPage</name>
    <message>
        <source>Contacts</source>
        <translation>Kişiler</translation>
    </message>
    <message>
        <source>C&amp;ontacts…</source>
        <translation>Kiş&amp;iler…</translation>
    </message>
    <message>
        <source>Phone numbers</source>
        <translation>Telefon numaraları</translation>
    </message>
    <message>
        <source>Numbers written without + are read as numbers of this country and stored in their international form, in the window, the API and incoming webhooks alike. Empty: every number needs its leading +.</source>
        <translation>+ olmadan yazılan numaralar bu ülkenin numarası sayılır ve uluslararası biçimde saklanır; pencerede, API&apos;de ve gelen webhook&apos;larda aynı şekilde. Boş bırakılırsa her numaranın başında + olmalıdır.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>yok</translation>
    </message>
    <message>
        <source>Use %1 (+%2)</source>
        <translation>%1 kullan (+%2)</translation>
    </message>
    <message>
        <source>Country calling code:</source>
        <translation>Ülke telefon kodu:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>Example: %1 is stored as %2.</source>
        <translation>Örnek: %1, %2 olarak saklanır.</translation>
    </message>
    <message>
        <source>A country calling code has 1 to 3 digits, e.g. 90.</source>
        <translation>Ülke telefon kodu 1 ile 3 rakamdan oluşur, örneğin 90.</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Kaydedilemedi: %1</translation>
    </message>
    <message>
        <source>Saved: phone numbers need their leading +.</source>
        <translation>Kaydedildi: telefon numaralarının başında + olmalıdır.</translation>
    </message>
    <message>
        <source>Saved: numbers without + are read as +%1 numbers.</source>
        <translation>Kaydedildi: + olmadan yazılan numaralar +%1 numarası sayılır.</translation>
    </message>
    <message>
        <source>Example: %1 is refused; +90 532 123 45 67 is taken as written (a number with + is kept as typed).</source>
        <translation>Örnek: %1 reddedilir; +90 532 123 45 67 yazıldığı gibi alınır (+ ile yazılan numara olduğu gibi saklanır).</translation>
    </message>
</context>
<context>
    <name>ContactsView</name>
    <message>
        <source>Search name, e-mail, phone…</source>
        <translation>Ad, e-posta, telefon ara…</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Yeni</translation>
    </message>
    <message>
        <source>Create a contact</source>
        <translation>Kişi oluştur</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Düzenle</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Could not read contacts: %1</source>
        <translation>Kişiler okunamadı: %1</translation>
    </message>
    <message>
        <source>All tags</source>
        <translation>Tüm etiketler</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>1 contact</source>
        <translation>1 kişi</translation>
    </message>
    <message>
        <source>%1 contacts</source>
        <translation>%1 kişi</translation>
    </message>
    <message>
        <source>Edit contact</source>
        <translation>Kişiyi düzenle</translation>
    </message>
    <message>
        <source>Delete contact</source>
        <translation>Kişiyi sil</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>Sayılıyor…</translation>
    </message>
    <message>
        <source>Delete %1? Its notes and tags are deleted too.</source>
        <translation>%1 silinsin mi? Notları ve etiketleri de silinir.</translation>
    </message>
    <message>
        <source>%1 deleted.</source>
        <translation>%1 silindi.</translation>
    </message>
    <message>
        <source>No contact matches “%1”: change or clear the search.</source>
        <translation>“%1” ile eşleşen kişi yok: aramayı değiştirin ya da temizleyin.</translation>
    </message>
    <message>
        <source>No contacts in this list. Choose All contacts or another tag to see more.</source>
        <translation>Bu listede kişi yok. Daha fazlasını görmek için Tüm kişiler&apos;i ya da başka bir etiketi seçin.</translation>
    </message>
    <message>
        <source>Search all contacts</source>
        <translation>Tüm kişilerde ara</translation>
    </message>
    <message>
        <source>segment “%1”, tag “%2”</source>
        <translation>“%1” segmenti, “%2” etiketi</translation>
    </message>
    <message>
        <source>segment “%1”</source>
        <translation>“%1” segmenti</translation>
    </message>
    <message>
        <source>tag “%1”</source>
        <translation>“%1” etiketi</translation>
    </message>
    <message>
        <source>Searching in %1 only.</source>
        <translation>Yalnızca %1 içinde aranıyor.</translation>
    </message>
    <message numerus="yes">
        <source>Searching in %1 only (%n in all contacts).</source>
        <translation>
            <numerusform>Yalnızca %1 içinde aranıyor (tüm kişilerde %n).</numerusform>
        </translation>
    </message>
    <message>
        <source>Search contacts</source>
        <translation>Kişilerde ara</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kişiler</translation>
    </message>
    <message>
        <source>No contact in %1 matches “%2”.</source>
        <translation>%1 içinde “%2” ile eşleşen kişi yok.</translation>
    </message>
    <message>
        <source>No contacts yet. Add the people you sell to; a first message on a channel, or a tool using the API, adds contacts too.</source>
        <translation>Henüz kişi yok. Satış yaptığınız kişileri ekleyin; bir kanaldan gelen ilk mesaj ya da API&apos;yi kullanan bir araç da kişi ekler.</translation>
    </message>
    <message>
        <source>Show all contacts</source>
        <translation>Tüm kişileri göster</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Aramayı temizle</translation>
    </message>
    <message>
        <source>New contact…</source>
        <translation>Yeni kişi…</translation>
    </message>
    <message>
        <source>Duplicates…</source>
        <translation>Yinelenenler…</translation>
    </message>
    <message>
        <source>Find contacts that look like one person and merge them</source>
        <translation>Aynı kişi gibi görünen kişileri bulun ve birleştirin</translation>
    </message>
    <message>
        <source>Undo merge</source>
        <translation>Birleştirmeyi geri al</translation>
    </message>
    <message>
        <source>%1 contacts saved to %2.</source>
        <translation>%1 kişi %2 konumuna kaydedildi.</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 kaydedilmedi: %2</translation>
    </message>
    <message>
        <source>A contact with the same e-mail or phone exists:</source>
        <translation>Aynı e-posta ya da telefonla bir kişi varsa:</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV dosyaları (*.csv)</translation>
    </message>
    <message>
        <source>Export contacts to CSV</source>
        <translation>Kişileri CSV olarak dışa aktar</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Dışa aktar…</translation>
    </message>
    <message>
        <source>Full name (first and last)</source>
        <translation>Ad soyad (ad ve soyad)</translation>
    </message>
    <message>
        <source>Import contacts from a CSV file</source>
        <translation>Kişileri bir CSV dosyasından içe aktar</translation>
    </message>
    <message>
        <source>Import contacts</source>
        <translation>Kişileri içe aktar</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>İçe aktar…</translation>
    </message>
    <message>
        <source>Save the contacts the search and filters show as a CSV file</source>
        <translation>Aramanın ve filtrelerin gösterdiği kişileri CSV dosyası olarak kaydet</translation>
    </message>
    <message>
        <source>contacts.csv</source>
        <translation>kisiler.csv</translation>
    </message>
    <message>
        <source>Saving %1…</source>
        <translation>%1 kaydediliyor…</translation>
    </message>
</context>
<context>
    <name>CreateApiKeyDialog</name>
    <message>
        <source>Create API key</source>
        <translation>API anahtarı oluştur</translation>
    </message>
    <message>
        <source>e.g. Import script</source>
        <translation>ör. İçe aktarma betiği</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Ad:</translation>
    </message>
    <message>
        <source>Scopes:</source>
        <translation>Kapsamlar:</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Oluştur</translation>
    </message>
    <message>
        <source>Choose at least one scope.</source>
        <translation>En az bir kapsam seçin.</translation>
    </message>
    <message>
        <source>Everything (*)</source>
        <translation>Her şey (*)</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kişiler</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Fırsatlar</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Görevler</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Konuşmalar</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Mesajlar</translation>
    </message>
    <message>
        <source>Campaigns</source>
        <translation>Kampanyalar</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Asistan</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhook&apos;lar</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Ayarlar</translation>
    </message>
    <message>
        <source>read</source>
        <translation>okuma</translation>
    </message>
    <message>
        <source>write</source>
        <translation>yazma</translation>
    </message>
    <message>
        <source>read and write</source>
        <translation>okuma ve yazma</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1: %2 (%3)</translation>
    </message>
</context>
<context>
    <name>DealCardDelegate</name>
    <message>
        <source>No contact</source>
        <translation>Kişi yok</translation>
    </message>
    <message>
        <source>closes %1</source>
        <translation>kapanış: %1</translation>
    </message>
</context>
<context>
    <name>DealColumnModel</name>
    <message>
        <source>%1
%2 %3 · %4%</source>
        <translation>%1
%2 %3 · %%4</translation>
    </message>
    <message>
        <source>Contact: %1</source>
        <translation>Kişi: %1</translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation>Atanmamış</translation>
    </message>
    <message>
        <source>Owner: %1</source>
        <translation>Sorumlu: %1</translation>
    </message>
    <message>
        <source>Expected close: %1</source>
        <translation>Beklenen kapanış: %1</translation>
    </message>
</context>
<context>
    <name>DealDetailDialog</name>
    <message>
        <source>Activity</source>
        <translation>Etkinlik geçmişi</translation>
    </message>
    <message>
        <source>This deal was deleted.</source>
        <translation>Bu fırsat silindi.</translation>
    </message>
    <message>
        <source>Deal: %1</source>
        <translation>Fırsat: %1</translation>
    </message>
    <message>
        <source>Stage: %1 · probability %2%</source>
        <translation>Aşama: %1 · olasılık %%2</translation>
    </message>
    <message>
        <source>Contact: %1</source>
        <translation>Kişi: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>yok</translation>
    </message>
    <message>
        <source>Owner: %1</source>
        <translation>Sorumlu: %1</translation>
    </message>
    <message>
        <source>unassigned</source>
        <translation>atanmamış</translation>
    </message>
    <message>
        <source>Expected close: %1</source>
        <translation>Beklenen kapanış: %1</translation>
    </message>
    <message>
        <source>Lost: %1 %2</source>
        <translation>Kaybedildi: %1 %2</translation>
    </message>
    <message>
        <source>No activity for a while: this deal is rotting.</source>
        <translation>Bir süredir hiçbir işlem yapılmadı: bu fırsat soğuyor.</translation>
    </message>
    <message>
        <source>Created in %1</source>
        <translation>%1 aşamasında oluşturuldu</translation>
    </message>
    <message>
        <source>Moved %1 → %2</source>
        <translation>Taşındı: %1 → %2</translation>
    </message>
    <message>
        <source>Write the note first.</source>
        <translation>Önce notu yazın.</translation>
    </message>
    <message>
        <source>Add task…</source>
        <translation>Görev ekle…</translation>
    </message>
    <message>
        <source>Edit deal…</source>
        <translation>Fırsatı düzenle…</translation>
    </message>
    <message>
        <source>Delete deal…</source>
        <translation>Fırsatı sil…</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Görevler</translation>
    </message>
    <message>
        <source>✓ %1</source>
        <translation>✓ %1</translation>
    </message>
    <message>
        <source>%1 · due %2</source>
        <translation>%1 · son tarih: %2</translation>
    </message>
    <message>
        <source>No tasks yet.</source>
        <translation>Henüz görev yok.</translation>
    </message>
    <message>
        <source>Delete deal</source>
        <translation>Fırsatı sil</translation>
    </message>
    <message>
        <source>Delete the deal “%1” with its activities? Its tasks are kept, unlinked.</source>
        <translation>“%1” fırsatı etkinlik geçmişiyle birlikte silinsin mi? Görevleri silinmez, yalnızca fırsatla bağlantıları kaldırılır.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>A note, or what was said in a call or meeting…</source>
        <translation>Bir not ya da bir aramada veya toplantıda konuşulanlar…</translation>
    </message>
    <message>
        <source>Add to activity</source>
        <translation>Etkinliğe ekle</translation>
    </message>
    <message>
        <source>Value: %1</source>
        <translation>Değer: %1</translation>
    </message>
    <message>
        <source>Expected close: %1 (past)</source>
        <translation>Beklenen kapanış: %1 (geçti)</translation>
    </message>
</context>
<context>
    <name>DealEditDialog</name>
    <message>
        <source>New deal</source>
        <translation>Yeni fırsat</translation>
    </message>
    <message>
        <source>Edit deal: %1</source>
        <translation>Fırsatı düzenle: %1</translation>
    </message>
    <message>
        <source>What is being sold, to whom?</source>
        <translation>Kime ne satılıyor?</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Ad:</translation>
    </message>
    <message>
        <source>Value:</source>
        <translation>Tutar:</translation>
    </message>
    <message>
        <source>Pipeline:</source>
        <translation>Satış hattı:</translation>
    </message>
    <message>
        <source>Stage:</source>
        <translation>Aşama:</translation>
    </message>
    <message>
        <source>Probability:</source>
        <translation>Olasılık:</translation>
    </message>
    <message>
        <source>Contact:</source>
        <translation>Kişi:</translation>
    </message>
    <message>
        <source>(unassigned)</source>
        <translation>(atanmamış)</translation>
    </message>
    <message>
        <source>Owner:</source>
        <translation>Sorumlu:</translation>
    </message>
    <message>
        <source>Expected to close on</source>
        <translation>Beklenen kapanış tarihi</translation>
    </message>
    <message>
        <source>Close date:</source>
        <translation>Kapanış tarihi:</translation>
    </message>
    <message>
        <source>Notes about this deal</source>
        <translation>Bu fırsatla ilgili notlar</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>Notlar:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>%1 %</source>
        <comment>a percentage</comment>
        <translation>%%1</translation>
    </message>
    <message>
        <source>Value</source>
        <comment>the value field, as a screen reader names it</comment>
        <translation>Tutar</translation>
    </message>
    <message>
        <source>Name</source>
        <comment>the name field, as a screen reader names it</comment>
        <translation>Ad</translation>
    </message>
</context>
<context>
    <name>DealListModel</name>
    <message>
        <source>Deal</source>
        <translation>Fırsat</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Aşama</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Tutar</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kişi</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Sorumlu</translation>
    </message>
    <message>
        <source>Expected close</source>
        <translation>Beklenen kapanış</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>Değişiklik</translation>
    </message>
</context>
<context>
    <name>DealText</name>
    <message>
        <source>Price</source>
        <translation>Fiyat</translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation>Rakip</translation>
    </message>
    <message>
        <source>Timing</source>
        <translation>Zamanlama</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>Bütçe</translation>
    </message>
    <message>
        <source>No response</source>
        <translation>Yanıt yok</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Diğer</translation>
    </message>
    <message>
        <source>Lead</source>
        <translation>Aday</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>İletişim kuruldu</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>Teklif</translation>
    </message>
    <message>
        <source>Negotiation</source>
        <translation>Pazarlık</translation>
    </message>
    <message>
        <source>Won</source>
        <translation>Kazanıldı</translation>
    </message>
    <message>
        <source>Lost</source>
        <translation>Kaybedildi</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Arama</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Toplantı</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Stage change</source>
        <translation>Aşama değişikliği</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Not</translation>
    </message>
    <message>
        <source>Sales</source>
        <translation>Satış</translation>
    </message>
</context>
<context>
    <name>EmailPage</name>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>&amp;E-mail…</source>
        <translation>&amp;E-posta…</translation>
    </message>
    <message>
        <source>The mail server campaigns send e-mail through. The password and the DKIM key are kept in the system keychain; changes take effect at the next start.</source>
        <translation>Kampanyaların e-posta gönderdiği posta sunucusu. Parola ve DKIM anahtarı sistem anahtar zincirinde saklanır; değişiklikler bir sonraki başlatmada geçerli olur.</translation>
    </message>
    <message>
        <source>SMTP server</source>
        <translation>SMTP sunucusu</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Sunucu</translation>
    </message>
    <message>
        <source>e.g. smtp.ornek.com.tr</source>
        <translation>ör. smtp.ornek.com.tr</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Bağlantı noktası</translation>
    </message>
    <message>
        <source>STARTTLS (usually port 587)</source>
        <translation>STARTTLS (genellikle 587 numaralı bağlantı noktası)</translation>
    </message>
    <message>
        <source>TLS from the start (usually port 465)</source>
        <translation>Baştan TLS (genellikle 465 numaralı bağlantı noktası)</translation>
    </message>
    <message>
        <source>None (only a server on this machine)</source>
        <translation>Yok (yalnızca bu makinedeki bir sunucu)</translation>
    </message>
    <message>
        <source>Security</source>
        <translation>Güvenlik</translation>
    </message>
    <message>
        <source>Check the server&apos;s certificate</source>
        <translation>Sunucunun sertifikasını denetle</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Kullanıcı</translation>
    </message>
    <message>
        <source>empty: no sign-in</source>
        <translation>boş: oturum açılmaz</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Parola</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Gönderen</translation>
    </message>
    <message>
        <source>Örnek Ltd. &lt;bulten@ornek.com.tr&gt;</source>
        <translation>Örnek Ltd. &lt;bulten@ornek.com.tr&gt;</translation>
    </message>
    <message>
        <source>DKIM signing</source>
        <translation>DKIM imzası</translation>
    </message>
    <message>
        <source>Signed mail reaches inboxes more often. Publish the public key as a TXT record at &lt;selector&gt;._domainkey.&lt;domain&gt;; leave these empty to send unsigned.</source>
        <translation>İmzalı postalar gelen kutularına daha sık ulaşır. Ortak anahtarı &lt;seçici&gt;._domainkey.&lt;alan adı&gt; adresinde bir TXT kaydı olarak yayımlayın; imzasız göndermek için bunları boş bırakın.</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Alan adı</translation>
    </message>
    <message>
        <source>e.g. ornek.com.tr</source>
        <translation>ör. ornek.com.tr</translation>
    </message>
    <message>
        <source>Selector</source>
        <translation>Seçici</translation>
    </message>
    <message>
        <source>e.g. liaison</source>
        <translation>ör. liaison</translation>
    </message>
    <message>
        <source>Private key (PEM)</source>
        <translation>Özel anahtar (PEM)</translation>
    </message>
    <message>
        <source>Remove the stored key</source>
        <translation>Kayıtlı anahtarı kaldır</translation>
    </message>
    <message>
        <source>Without encryption the password and the mail would cross the network in clear: choose STARTTLS or TLS, or a server on this machine (localhost).</source>
        <translation>Şifreleme olmadan parola ve postalar ağda açık metin olarak gider: STARTTLS ya da TLS seçin veya bu makinedeki bir sunucuyu (localhost) kullanın.</translation>
    </message>
    <message>
        <source>The host is a name or an address, without spaces or slashes.</source>
        <translation>Sunucu, boşluk ya da eğik çizgi içermeyen bir ad veya adrestir.</translation>
    </message>
    <message>
        <source>Write the From address as Name &lt;address@domain&gt; or address@domain.</source>
        <translation>Gönderen adresini Ad &lt;adres@alanadi&gt; ya da adres@alanadi biçiminde yazın.</translation>
    </message>
    <message>
        <source>Give the From address the mail is sent from.</source>
        <translation>Postanın gönderileceği Gönderen adresini girin.</translation>
    </message>
    <message>
        <source>DKIM needs the domain, the selector and the private key, or none of them.</source>
        <translation>DKIM için alan adı, seçici ve özel anahtarın hepsi gerekir ya da hiçbiri verilmez.</translation>
    </message>
    <message>
        <source>The DKIM key is a private key in PEM form (-----BEGIN PRIVATE KEY-----).</source>
        <translation>DKIM anahtarı PEM biçiminde bir özel anahtardır (-----BEGIN PRIVATE KEY-----).</translation>
    </message>
    <message>
        <source>The key pasted above is stored when you save.</source>
        <translation>Yukarıya yapıştırılan anahtar kaydettiğinizde saklanır.</translation>
    </message>
    <message>
        <source>No key is stored.</source>
        <translation>Kayıtlı anahtar yok.</translation>
    </message>
    <message>
        <source>A key is stored; paste another to replace it.</source>
        <translation>Bir anahtar kayıtlı; değiştirmek için başkasını yapıştırın.</translation>
    </message>
</context>
<context>
    <name>ErrorText</name>
    <message>
        <source>The file is too large: at most %1</source>
        <translation>Dosya çok büyük: en fazla %1</translation>
    </message>
    <message>
        <source>The channel cannot send now (%1)</source>
        <translation>Kanal şu anda gönderim yapamıyor (%1)</translation>
    </message>
    <message numerus="yes">
        <source>Too many messages on this channel: try again in %n second(s)</source>
        <translation>
            <numerusform>Bu kanaldan çok fazla mesaj gönderildi: %n saniye sonra yeniden deneyin</numerusform>
        </translation>
    </message>
    <message>
        <source>The database server cannot be reached at the moment; nothing was changed. Liaison connects again by itself: try again shortly.</source>
        <translation>Veritabanı sunucusuna şu anda ulaşılamıyor; hiçbir şey değiştirilmedi. Liaison kendiliğinden yeniden bağlanır: biraz sonra yeniden deneyin.</translation>
    </message>
</context>
<context>
    <name>FieldErrors</name>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>Correct the %n field(s) marked below.</source>
        <translation>
            <numerusform>Aşağıda işaretli %n alanı düzeltin.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FieldName</name>
    <message>
        <source>First name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Last name</source>
        <translation>Soyad</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Şirket</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>Unvan</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiketler</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adres</translation>
    </message>
    <message>
        <source>Street</source>
        <translation>Sokak</translation>
    </message>
    <message>
        <source>City</source>
        <translation>Şehir</translation>
    </message>
    <message>
        <source>Country</source>
        <translation>Ülke</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Kaynak</translation>
    </message>
    <message>
        <source>Lead score</source>
        <translation>Potansiyel puanı</translation>
    </message>
    <message>
        <source>Custom fields</source>
        <translation>Özel alanlar</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Tutar</translation>
    </message>
    <message>
        <source>Currency</source>
        <translation>Para birimi</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Aşama</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Satış hattı</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kişi</translation>
    </message>
    <message>
        <source>Deal</source>
        <translation>Fırsat</translation>
    </message>
    <message>
        <source>Expected close date</source>
        <translation>Tahmini kapanış tarihi</translation>
    </message>
    <message>
        <source>Probability</source>
        <translation>Olasılık</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>Sahibi</translation>
    </message>
    <message>
        <source>Lost reason</source>
        <translation>Kaybetme nedeni</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Neden</translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation>Rakip</translation>
    </message>
    <message>
        <source>Closed value</source>
        <translation>Kapanış tutarı</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Başlık</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Açıklama</translation>
    </message>
    <message>
        <source>Due date</source>
        <translation>Son tarih</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Öncelik</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tür</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Assignee</source>
        <translation>Atanan</translation>
    </message>
    <message>
        <source>Reminder</source>
        <translation>Hatırlatıcı</translation>
    </message>
    <message>
        <source>Reminder time</source>
        <translation>Hatırlatma zamanı</translation>
    </message>
    <message>
        <source>Repeat</source>
        <translation>Tekrar</translation>
    </message>
    <message>
        <source>Repeat frequency</source>
        <translation>Tekrar sıklığı</translation>
    </message>
    <message>
        <source>Repeat interval</source>
        <translation>Tekrar aralığı</translation>
    </message>
    <message>
        <source>Repeat days</source>
        <translation>Tekrar günleri</translation>
    </message>
    <message>
        <source>Repeat end date</source>
        <translation>Tekrarın bitişi</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>Kurallar</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Eşleşme</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Alan</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>İşleç</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Olaylar</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>Gizli anahtar</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Etkin</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Metin</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Not</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>Aşamalar</translation>
    </message>
    <message>
        <source>Days until stale</source>
        <translation>Bayatlama günü</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Anahtar</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rol</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Parola</translation>
    </message>
    <message>
        <source>Sentiment</source>
        <translation>Duygu</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Mesajlar</translation>
    </message>
    <message>
        <source>Last message</source>
        <translation>Son mesaj</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Oluşturulma</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Güncellenme</translation>
    </message>
    <message>
        <source>Rule %1</source>
        <translation>Kural %1</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Konu</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Mesaj</translation>
    </message>
    <message>
        <source>Audience</source>
        <translation>Kitle</translation>
    </message>
    <message>
        <source>Send at</source>
        <translation>Gönderim zamanı</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Şablon</translation>
    </message>
    <message>
        <source>Template language</source>
        <translation>Şablon dili</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Adımlar</translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation>Tetikleyici</translation>
    </message>
    <message>
        <source>Addresses</source>
        <translation>Adresler</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Soru</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Yanıt</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Dil</translation>
    </message>
    <message>
        <source>Contacts to merge</source>
        <translation>Birleştirilecek kişiler</translation>
    </message>
</context>
<context>
    <name>InboxComposer</name>
    <message>
        <source>Attach a file (or drop one onto the conversation)</source>
        <translation>Dosya ekleyin (veya dosyayı konuşmanın üzerine bırakın)</translation>
    </message>
    <message>
        <source>Attach a file</source>
        <translation>Dosya ekle</translation>
    </message>
    <message>
        <source>Template…</source>
        <translation>Şablon…</translation>
    </message>
    <message>
        <source>Send an approved message template</source>
        <translation>Onaylı bir mesaj şablonu gönder</translation>
    </message>
    <message>
        <source>Outside the 24-hour window: send a template</source>
        <translation>24 saatlik pencerenin dışında: bir şablon gönderin</translation>
    </message>
    <message>
        <source>WhatsApp accepts free text only within 24 hours of the customer&apos;s last message; after that it refuses anything but an approved template.</source>
        <translation>WhatsApp serbest metni yalnızca müşterinin son mesajından sonraki 24 saat içinde kabul eder; bu süreden sonra onaylı şablonlar dışında hiçbir mesajı kabul etmez.</translation>
    </message>
    <message>
        <source>✕</source>
        <translation>✕</translation>
    </message>
    <message>
        <source>Remove the attachment</source>
        <translation>Eki kaldır</translation>
    </message>
    <message>
        <source>Do not send the template</source>
        <translation>Şablonu gönderme</translation>
    </message>
    <message>
        <source>Cannot attach %1: not a readable file</source>
        <translation>%1 eklenemiyor: okunabilir bir dosya değil</translation>
    </message>
    <message>
        <source>Cannot attach %1: the file is empty</source>
        <translation>%1 eklenemiyor: dosya boş</translation>
    </message>
    <message>
        <source>%1 is too large to send (%2): at most %3</source>
        <translation>%1 gönderilemeyecek kadar büyük (%2): en fazla %3</translation>
    </message>
    <message>
        <source>document</source>
        <translation>belge</translation>
    </message>
    <message>
        <source>image</source>
        <translation>görsel</translation>
    </message>
    <message>
        <source>video</source>
        <translation>video</translation>
    </message>
    <message>
        <source>audio</source>
        <translation>ses</translation>
    </message>
    <message>
        <source>Choose a template</source>
        <translation>Bir şablon seçin</translation>
    </message>
    <message>
        <source>%1 (%2)
%3</source>
        <translation>%1 (%2)
%3</translation>
    </message>
    <message>
        <source>Use template</source>
        <translation>Şablonu kullan</translation>
    </message>
    <message>
        <source>Template %1 (%2)</source>
        <translation>Şablon: %1 (%2)</translation>
    </message>
    <message>
        <source>Value of {{%1}}</source>
        <translation>{{%1}} değeri</translation>
    </message>
    <message>
        <source>{{%1}}</source>
        <translation>{{%1}}</translation>
    </message>
    <message>
        <source>Quick-reply buttons:</source>
        <translation>Hızlı yanıt düğmeleri:</translation>
    </message>
    <message>
        <source>Sending files is not available here</source>
        <translation>Dosya gönderme burada kullanılamıyor</translation>
    </message>
    <message>
        <source>Sending templates is not available here</source>
        <translation>Şablon gönderme burada kullanılamıyor</translation>
    </message>
    <message>
        <source>Fill in every placeholder of the template: {{%1}} is empty</source>
        <translation>Şablonun tüm yer tutucularını doldurun: {{%1}} boş</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>Ekle…</translation>
    </message>
    <message>
        <source>Attachment: %1 · %2 · %3</source>
        <translation>Ek: %1 · %2 · %3</translation>
    </message>
    <message>
        <source>No approved templates yet: an admin adds them in Settings → Templates.</source>
        <translation>Henüz onaylı şablon yok: bir yönetici Ayarlar → Şablonlar bölümünde ekler.</translation>
    </message>
</context>
<context>
    <name>InboxContactPanel</name>
    <message>
        <source>Open contact…</source>
        <translation>Kişiyi aç…</translation>
    </message>
    <message>
        <source>Open deal…</source>
        <translation>Fırsatı aç…</translation>
    </message>
    <message>
        <source>Open task…</source>
        <translation>Görevi aç…</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Fırsatlar</translation>
    </message>
    <message>
        <source>Open tasks</source>
        <translation>Açık görevler</translation>
    </message>
    <message>
        <source>No conversation selected</source>
        <translation>Konuşma seçilmedi</translation>
    </message>
    <message>
        <source>Contact not found</source>
        <translation>Kişi bulunamadı</translation>
    </message>
    <message>
        <source>Phone: %1</source>
        <translation>Telefon: %1</translation>
    </message>
    <message>
        <source>E-mail: %1</source>
        <translation>E-posta: %1</translation>
    </message>
    <message>
        <source>Company: %1</source>
        <translation>Şirket: %1</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 %4</source>
        <translation>%1 · %2 · %3 %4</translation>
    </message>
    <message>
        <source>%1 · due %2</source>
        <translation>%1 · son tarih: %2</translation>
    </message>
    <message>
        <source>No deals.</source>
        <translation>Fırsat yok.</translation>
    </message>
    <message>
        <source>No open tasks.</source>
        <translation>Açık görev yok.</translation>
    </message>
    <message>
        <source>Contact details</source>
        <translation>Kişi bilgileri</translation>
    </message>
    <message>
        <source>Create contact…</source>
        <translation>Kişi oluştur…</translation>
    </message>
    <message>
        <source>Save who this visitor is as a contact; the conversation becomes theirs</source>
        <translation>Bu ziyaretçinin kim olduğunu kişi olarak kaydedin; konuşma o kişinin olur</translation>
    </message>
    <message>
        <source>Create contact for %1</source>
        <translation>%1 için kişi oluştur</translation>
    </message>
    <message>
        <source>Anonymous web visitor</source>
        <translation>Anonim web ziyaretçisi</translation>
    </message>
    <message>
        <source>%1 has not given a name, e-mail address or phone number yet. Create a contact when you know who they are.</source>
        <translation>%1 henüz bir ad, e-posta adresi ya da telefon numarası vermedi. Kim olduğunu öğrendiğinizde bir kişi oluşturun.</translation>
    </message>
</context>
<context>
    <name>InboxView</name>
    <message>
        <source>Inbox</source>
        <translation>Gelen kutusu</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Tüm durumlar</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Açık</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Beklemede</translation>
    </message>
    <message>
        <source>Closed</source>
        <translation>Kapalı</translation>
    </message>
    <message>
        <source>All channels</source>
        <translation>Tüm kanallar</translation>
    </message>
    <message>
        <source>WhatsApp</source>
        <translation>WhatsApp</translation>
    </message>
    <message>
        <source>Instagram</source>
        <translation>Instagram</translation>
    </message>
    <message>
        <source>Telegram</source>
        <translation>Telegram</translation>
    </message>
    <message>
        <source>Web widget</source>
        <translation>Web sohbet aracı</translation>
    </message>
    <message>
        <source>Select a conversation</source>
        <translation>Bir konuşma seçin</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Kapat</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>Yeniden aç</translation>
    </message>
    <message>
        <source>Assign to me</source>
        <translation>Bana ata</translation>
    </message>
    <message>
        <source>Write a reply…</source>
        <translation>Bir yanıt yazın…</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Gönder</translation>
    </message>
    <message>
        <source>No user account: create one with “liaison user add”</source>
        <translation>Kullanıcı hesabı yok: “liaison user add” komutuyla bir hesap oluşturun</translation>
    </message>
    <message>
        <source>Assign to %1</source>
        <translation>Ata: %1</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(adsız)</translation>
    </message>
    <message>
        <source>%1 (%2 unread)</source>
        <translation>%1 (%2 okunmamış)</translation>
    </message>
    <message>
        <source>assigned to %1</source>
        <translation>atanan: %1</translation>
    </message>
    <message>
        <source>Assigned to me</source>
        <translation>Bana atananlar</translation>
    </message>
    <message>
        <source>Unread</source>
        <translation>Okunmamış</translation>
    </message>
    <message>
        <source>Assigned agent</source>
        <translation>Atanan temsilci</translation>
    </message>
    <message>
        <source>Add tags, comma-separated</source>
        <translation>Eklenecek etiketler, virgülle ayırarak</translation>
    </message>
    <message>
        <source>Add tag</source>
        <translation>Etiket ekle</translation>
    </message>
    <message>
        <source>Remove tag</source>
        <translation>Etiketi kaldır</translation>
    </message>
    <message>
        <source>Quick replies</source>
        <translation>Hızlı yanıtlar</translation>
    </message>
    <message>
        <source>Insert a canned answer (or type / in the empty composer)</source>
        <translation>Hazır bir yanıt ekleyin (veya boş yanıt alanına / yazın)</translation>
    </message>
    <message>
        <source>Tags:</source>
        <translation>Etiketler:</translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation>Atanmamış</translation>
    </message>
    <message>
        <source>No quick replies yet</source>
        <translation>Henüz hızlı yanıt yok</translation>
    </message>
    <message>
        <source>Edit quick replies…</source>
        <translation>Hızlı yanıtları düzenle…</translation>
    </message>
    <message>
        <source>One answer per line:</source>
        <translation>Her satıra bir yanıt:</translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n okunmamış</numerusform>
        </translation>
    </message>
    <message>
        <source>[%1]</source>
        <translation>[%1]</translation>
    </message>
    <message>
        <source>New message from %1</source>
        <translation>Yeni mesaj: %1</translation>
    </message>
    <message>
        <source>No conversations here. Messages from WhatsApp, Telegram, Instagram and the web widget arrive here once a channel is set up in Settings → Channels.</source>
        <translation>Burada konuşma yok. WhatsApp, Telegram, Instagram ve web sohbet aracından gelen mesajlar, Ayarlar → Kanallar bölümünde bir kanal kurulduğunda buraya gelir.</translation>
    </message>
    <message>
        <source>open</source>
        <translation>açık</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>beklemede</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>kapalı</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>Dün</translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line</source>
        <translation>Enter gönderir, Shift+Enter yeni satıra geçer</translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation>Metni kopyala</translation>
    </message>
    <message>
        <source>sending</source>
        <translation>gönderiliyor</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>gönderildi</translation>
    </message>
    <message>
        <source>delivered</source>
        <translation>iletildi</translation>
    </message>
    <message>
        <source>read</source>
        <translation>okundu</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>başarısız: %1</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Bugün</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Görsel</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>Video</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Belge</translation>
    </message>
    <message>
        <source>Voice message</source>
        <translation>Sesli mesaj</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Konum</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Şablon</translation>
    </message>
    <message>
        <source>Team</source>
        <translation>Ekip</translation>
    </message>
    <message>
        <source>Not delivered: %1</source>
        <translation>İletilemedi: %1</translation>
    </message>
    <message>
        <source>New tags</source>
        <translation>Yeni etiketler</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Konuşmalar</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Mesajlar</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Yanıt</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Yeniden dene</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Düzenle</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Send again</source>
        <translation>Yeniden gönder</translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation>Gönderilmedi: %1</translation>
    </message>
    <message>
        <source>Send the replies that were not sent again, oldest first</source>
        <translation>Gönderilemeyen yanıtları en eskiden başlayarak yeniden gönder</translation>
    </message>
    <message>
        <source>Take the reply back into the composer</source>
        <translation>Yanıtı yazma alanına geri al</translation>
    </message>
    <message>
        <source>Delete the reply without sending it</source>
        <translation>Yanıtı göndermeden sil</translation>
    </message>
    <message>
        <source>Right-click to retry</source>
        <translation>Yeniden denemek için sağ tıklayın</translation>
    </message>
    <message>
        <source>No conversation selected</source>
        <translation>Konuşma seçilmedi</translation>
    </message>
    <message>
        <source>Not sent: “%1” (%2)</source>
        <translation>Gönderilmedi: “%1” (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n replies not sent: “%1” (%2)</source>
        <translation>
            <numerusform>%n yanıt gönderilmedi: “%1” (%2)</numerusform>
        </translation>
    </message>
    <message>
        <source>Not sent</source>
        <translation>Gönderilmedi</translation>
    </message>
    <message>
        <source>Draft: %1</source>
        <translation>Taslak: %1</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiketler</translation>
    </message>
    <message>
        <source>Search by contact name…</source>
        <translation>Kişi adına göre ara…</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Konuşmalarda ara</translation>
    </message>
    <message>
        <source>No conversation with a contact named “%1”: change or clear the search.</source>
        <translation>Adı “%1” olan bir kişiyle konuşma yok: aramayı değiştirin ya da temizleyin.</translation>
    </message>
    <message>
        <source>Website visitor %1</source>
        <translation>Web sitesi ziyaretçisi %1</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Aramayı temizle</translation>
    </message>
    <message>
        <source>No conversation here with these filters.</source>
        <translation>Bu filtrelerle gösterilecek konuşma yok.</translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation>Filtreleri temizle</translation>
    </message>
    <message>
        <source>Set up channels…</source>
        <translation>Kanalları ayarla…</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>the knowledge base has no answer</source>
        <translation>bilgi bankasında yanıtı yok</translation>
    </message>
    <message>
        <source>it is not sure of its answer</source>
        <translation>yanıtından emin değil</translation>
    </message>
    <message>
        <source>more than one answer fits</source>
        <translation>birden çok yanıt uyuyor</translation>
    </message>
    <message>
        <source>the customer asked for a person</source>
        <translation>müşteri bir kişiyle görüşmek istedi</translation>
    </message>
    <message>
        <source>it does not know the customer&apos;s language</source>
        <translation>müşterinin dilini bilmiyor</translation>
    </message>
    <message>
        <source>Hand back to the assistant</source>
        <translation>Asistana geri ver</translation>
    </message>
    <message>
        <source>The assistant answers this conversation&apos;s customer again</source>
        <translation>Asistan bu görüşmedeki müşteriye yeniden yanıt verir</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Kullan</translation>
    </message>
    <message>
        <source>Put the suggestion into the reply box, after what you wrote</source>
        <translation>Öneriyi yanıt kutusuna, yazdıklarınızın arkasına ekler</translation>
    </message>
    <message>
        <source>Discard the suggestion</source>
        <translation>Öneriyi at</translation>
    </message>
    <message>
        <source>Discard the assistant&apos;s suggestion (and take it out of the reply box)</source>
        <translation>Asistanın önerisini atar (yanıt kutusundan da çıkarır)</translation>
    </message>
    <message>
        <source>Discard</source>
        <comment>the assistant&apos;s suggestion</comment>
        <translation>At</translation>
    </message>
    <message>
        <source>handed over</source>
        <translation>devredildi</translation>
    </message>
    <message>
        <source>Suggestion: %1</source>
        <translation>Öneri: %1</translation>
    </message>
    <message>
        <source>The assistant handed this conversation over: %1</source>
        <translation>Asistan bu görüşmeyi devretti: %1</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Asistan</translation>
    </message>
    <message>
        <source>Sign in to give feedback on the assistant&apos;s answers</source>
        <translation>Asistanın yanıtlarına geri bildirim vermek için oturum açın</translation>
    </message>
    <message>
        <source>The assistant handed this conversation over to you: %1</source>
        <translation>Asistan bu görüşmeyi size devretti: %1</translation>
    </message>
    <message>
        <source>The assistant handed this conversation over to a person: %1</source>
        <translation>Asistan bu görüşmeyi ekibe devretti: %1</translation>
    </message>
    <message>
        <source>The assistant&apos;s suggestion is in the reply box: send it as it is or edited, or discard it.</source>
        <translation>Asistanın önerisi yanıt kutusunda: olduğu gibi ya da düzenleyip gönderin veya atın.</translation>
    </message>
    <message>
        <source>The assistant suggests: “%1”</source>
        <translation>Asistanın önerisi: “%1”</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Bekleyen</translation>
    </message>
    <message>
        <source>Conversations whose last message came from the customer and that are not closed</source>
        <translation>Son mesajı müşteriden gelen ve kapatılmamış konuşmalar</translation>
    </message>
</context>
<context>
    <name>IncomingWebhookDialog</name>
    <message>
        <source>Add incoming webhook</source>
        <translation>Gelen webhook ekle</translation>
    </message>
    <message>
        <source>Create or update a contact</source>
        <translation>Kişi oluştur veya güncelle</translation>
    </message>
    <message>
        <source>Create or update a deal</source>
        <translation>Fırsat oluştur veya güncelle</translation>
    </message>
    <message>
        <source>Create a task</source>
        <translation>Görev oluştur</translation>
    </message>
    <message>
        <source>Receive a message</source>
        <translation>Mesaj al</translation>
    </message>
    <message>
        <source>Require a signature (X-Service-Signature)</source>
        <translation>İmza zorunlu olsun (X-Service-Signature)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Eylem</translation>
    </message>
</context>
<context>
    <name>IncomingWebhooksPage</name>
    <message>
        <source>External systems POST {&quot;event&quot;: …, &quot;data&quot;: {…}} to an endpoint&apos;s URL (no API key). Each endpoint runs one action; every call is logged below.</source>
        <translation>Dış sistemler, bir uç noktanın URL&apos;sine {&quot;event&quot;: …, &quot;data&quot;: {…}} gövdesini POST eder (API anahtarı gerekmez). Her uç nokta tek bir eylem çalıştırır; her çağrı aşağıda kaydedilir.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Eylem</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Signed</source>
        <translation>İmzalı</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>Çağrılar</translation>
    </message>
    <message>
        <source>Last call</source>
        <translation>Son çağrı</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Ekle…</translation>
    </message>
    <message>
        <source>Copy URL</source>
        <translation>URL&apos;yi kopyala</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zaman</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Olay</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Sonuç</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Hata</translation>
    </message>
    <message>
        <source>Call log</source>
        <translation>Çağrı günlüğü</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Hayır</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Evet</translation>
    </message>
    <message>
        <source>Signing secret of the incoming webhook</source>
        <translation>Gelen webhook&apos;un imza anahtarı</translation>
    </message>
    <message>
        <source>Delete incoming webhook</source>
        <translation>Gelen webhook&apos;u sil</translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot;? Calls to its URL will be answered 404.</source>
        <translation>&quot;%1&quot; silinsin mi? URL&apos;sine yapılan çağrılar 404 ile yanıtlanır.</translation>
    </message>
    <message>
        <source>No incoming webhooks yet. Add one with Add… and give its URL to the service that should create contacts or deals here.</source>
        <translation>Henüz gelen webhook yok. Ekle… ile bir tane ekleyin ve adresini burada kişi ya da fırsat oluşturacak servise verin.</translation>
    </message>
</context>
<context>
    <name>JumpBox</name>
    <message>
        <source>Contacts</source>
        <translation>Kişiler</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Fırsatlar</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Konuşmalar</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Görevler</translation>
    </message>
    <message>
        <source>Jump to</source>
        <translation>Git</translation>
    </message>
    <message>
        <source>Name of a contact, deal, conversation or task…</source>
        <translation>Bir kişinin, fırsatın, konuşmanın veya görevin adı…</translation>
    </message>
    <message>
        <source>Matches</source>
        <translation>Eşleşenler</translation>
    </message>
    <message>
        <source>Type a name. Up and Down choose, Enter opens.</source>
        <translation>Bir ad yazın. Yukarı ve Aşağı ile seçin, Enter ile açın.</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>Aranıyor…</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(adsız)</translation>
    </message>
    <message>
        <source>due %1</source>
        <translation>son tarih %1</translation>
    </message>
    <message>
        <source>done</source>
        <translation>tamamlandı</translation>
    </message>
    <message>
        <source>Nothing matches “%1”.</source>
        <translation>“%1” ile eşleşen bir şey yok.</translation>
    </message>
    <message>
        <source>Up and Down choose, Enter opens.</source>
        <translation>Yukarı ve Aşağı ile seçin, Enter ile açın.</translation>
    </message>
</context>
<context>
    <name>LostDialog</name>
    <message>
        <source>Deal lost: %1</source>
        <translation>Fırsat kaybedildi: %1</translation>
    </message>
    <message>
        <source>Choose a reason…</source>
        <translation>Bir neden seçin…</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Neden</translation>
    </message>
    <message>
        <source>Competitor</source>
        <translation>Rakip</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Not</translation>
    </message>
    <message>
        <source>Mark lost</source>
        <translation>Kaybedildi olarak işaretle</translation>
    </message>
    <message>
        <source>Choose why the deal was lost.</source>
        <translation>Fırsatın neden kaybedildiğini seçin.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Liaison</source>
        <translation>Liaison</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kişiler</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Fırsatlar</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Dosya</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>Çı&amp;kış</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Ayarlar</translation>
    </message>
    <message>
        <source>&amp;API keys…</source>
        <translation>&amp;API anahtarları…</translation>
    </message>
    <message>
        <source>&amp;Webhooks…</source>
        <translation>&amp;Webhook&apos;lar…</translation>
    </message>
    <message>
        <source>&amp;Incoming webhooks…</source>
        <translation>&amp;Gelen webhook&apos;lar…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Yardım</translation>
    </message>
    <message>
        <source>&amp;About Liaison</source>
        <translation>Liaison &amp;hakkında</translation>
    </message>
    <message>
        <source>About Liaison</source>
        <translation>Liaison hakkında</translation>
    </message>
    <message>
        <source>Liaison %1
A desktop CRM with a local REST API.</source>
        <translation>Liaison %1
Yerel REST API&apos;si olan bir masaüstü CRM uygulaması.</translation>
    </message>
    <message>
        <source>API: not started</source>
        <translation>API: başlatılmadı</translation>
    </message>
    <message>
        <source>API: %1 — running</source>
        <translation>API: %1 — çalışıyor</translation>
    </message>
    <message>
        <source>API server stopped</source>
        <translation>API sunucusu durdu</translation>
    </message>
    <message>
        <source>API server stopped: %1</source>
        <translation>API sunucusu durdu: %1</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhook&apos;lar</translation>
    </message>
    <message>
        <source>Incoming webhooks</source>
        <translation>Gelen webhook&apos;lar</translation>
    </message>
    <message>
        <source>Web widget</source>
        <translation>Web sohbet aracı</translation>
    </message>
    <message>
        <source>Web &amp;widget…</source>
        <translation>Web sohbet &amp;aracı…</translation>
    </message>
    <message>
        <source>&amp;Getting started…</source>
        <translation>&amp;Başlarken…</translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation>&amp;Oturumu kapat</translation>
    </message>
    <message>
        <source>%1 (admin)</source>
        <translation>%1 (yönetici)</translation>
    </message>
    <message>
        <source>%1 (agent)</source>
        <translation>%1 (temsilci)</translation>
    </message>
    <message>
        <source>&amp;Change password…</source>
        <translation>&amp;Parolayı değiştir…</translation>
    </message>
    <message>
        <source>Navigation</source>
        <translation>Gezinme</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation>&amp;Klavye kısayolları…</translation>
    </message>
    <message>
        <source>Everywhere</source>
        <translation>Her yerde</translation>
    </message>
    <message>
        <source>Jump to a contact, deal, conversation or task</source>
        <translation>Bir kişiye, fırsata, konuşmaya veya göreve git</translation>
    </message>
    <message>
        <source>Search in the area in front</source>
        <translation>Öndeki bölümde ara</translation>
    </message>
    <message>
        <source>New record in the area in front (contact, deal, task; in the Inbox, a reply)</source>
        <translation>Öndeki bölümde yeni kayıt (kişi, fırsat, görev; Gelen kutusunda bir yanıt)</translation>
    </message>
    <message>
        <source>Go to %1</source>
        <translation>%1 bölümüne git</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Çık</translation>
    </message>
    <message>
        <source>Down or Enter (in the search)</source>
        <translation>Aşağı veya Enter (aramada)</translation>
    </message>
    <message>
        <source>Move to the results, the first one selected</source>
        <translation>Sonuçlara geç, ilki seçili</translation>
    </message>
    <message>
        <source>Enter (in the results)</source>
        <translation>Enter (sonuçlarda)</translation>
    </message>
    <message>
        <source>Open the selected contact</source>
        <translation>Seçili kişiyi aç</translation>
    </message>
    <message>
        <source>Escape (in the results)</source>
        <translation>Esc (sonuçlarda)</translation>
    </message>
    <message>
        <source>Back to the search</source>
        <translation>Aramaya dön</translation>
    </message>
    <message>
        <source>Delete the selected contact</source>
        <translation>Seçili kişiyi sil</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Görevler</translation>
    </message>
    <message>
        <source>Enter (in the quick-add line)</source>
        <translation>Enter (hızlı ekleme satırında)</translation>
    </message>
    <message>
        <source>Add the task</source>
        <translation>Görevi ekle</translation>
    </message>
    <message>
        <source>Delete the selected task</source>
        <translation>Seçili görevi sil</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>Gelen kutusu</translation>
    </message>
    <message>
        <source>%1 … %2</source>
        <translation>%1 … %2</translation>
    </message>
    <message>
        <source>Insert quick reply 1 to 9</source>
        <translation>1&apos;den 9&apos;a kadar hazır yanıtı ekle</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <source>Send the reply</source>
        <translation>Yanıtı gönder</translation>
    </message>
    <message>
        <source>Shift+Enter</source>
        <translation>Shift+Enter</translation>
    </message>
    <message>
        <source>New line in the reply</source>
        <translation>Yanıtta yeni satır</translation>
    </message>
    <message>
        <source>/ (in an empty reply)</source>
        <translation>/ (boş yanıtta)</translation>
    </message>
    <message>
        <source>Choose a quick reply</source>
        <translation>Hazır yanıt seç</translation>
    </message>
    <message>
        <source>Jump to</source>
        <translation>Git</translation>
    </message>
    <message>
        <source>Up, Down</source>
        <translation>Yukarı, Aşağı</translation>
    </message>
    <message>
        <source>Choose a match</source>
        <translation>Eşleşeni seç</translation>
    </message>
    <message>
        <source>Open it in its area</source>
        <translation>Kendi bölümünde aç</translation>
    </message>
    <message>
        <source>Escape</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Kapat</translation>
    </message>
    <message>
        <source>Enter (in the list)</source>
        <translation>Enter (listede)</translation>
    </message>
    <message>
        <source>Open the selected deal</source>
        <translation>Seçili fırsatı aç</translation>
    </message>
    <message numerus="yes">
        <source>%n unread</source>
        <translation>
            <numerusform>%n okunmamış</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n overdue</source>
        <translation>
            <numerusform>%n gecikmiş</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>Disk full: changes are not being saved; reading still works</source>
        <translation>Disk dolu: değişiklikler kaydedilmiyor; okuma çalışıyor</translation>
    </message>
    <message>
        <source>Free space on the disk that holds the data folder; saving resumes by itself.</source>
        <translation>Veri klasörünün bulunduğu diskte yer açın; kaydetme kendiliğinden yeniden başlar.</translation>
    </message>
</context>
<context>
    <name>MediaPage</name>
    <message>
        <source>Uploads</source>
        <translation>Yüklemeler</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Largest file:</source>
        <translation>En büyük dosya:</translation>
    </message>
    <message>
        <source> days</source>
        <translation> gün</translation>
    </message>
    <message>
        <source>Keep files for:</source>
        <translation>Dosyaların saklanma süresi:</translation>
    </message>
    <message>
        <source>The server&apos;s own address, e.g. https://crm.example.com</source>
        <translation>Sunucunun kendi adresi, örn. https://crm.example.com</translation>
    </message>
    <message>
        <source>Public base URL of media links:</source>
        <translation>Medya bağlantılarının genel temel adresi:</translation>
    </message>
    <message>
        <source>Channel providers download sent files from this address. Changes take effect at the next start.</source>
        <translation>Kanal sağlayıcıları gönderilen dosyaları bu adresten indirir. Değişiklikler bir sonraki başlatmada geçerli olur.</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>Stored files</source>
        <translation>Saklanan dosyalar</translation>
    </message>
    <message>
        <source>Delete expired now</source>
        <translation>Süresi dolanları şimdi sil</translation>
    </message>
    <message>
        <source>The database cannot be read.</source>
        <translation>Veritabanı okunamıyor.</translation>
    </message>
    <message>
        <source>No files are stored.</source>
        <translation>Saklanan dosya yok.</translation>
    </message>
    <message>
        <source>Files: %1, %2 in all; the next one expires %3.</source>
        <translation>Dosyalar: %1, toplam %2; bir sonrakinin süresi %3 tarihinde doluyor.</translation>
    </message>
    <message>
        <source>The public base URL must be an http(s) address such as https://crm.example.com.</source>
        <translation>Genel temel adres, https://crm.example.com gibi bir http(s) adresi olmalıdır.</translation>
    </message>
    <message>
        <source>Could not save: %1</source>
        <translation>Kaydedilemedi: %1</translation>
    </message>
    <message>
        <source>Saved. The new settings take effect at the next start.</source>
        <translation>Kaydedildi. Yeni ayarlar bir sonraki başlatmada geçerli olur.</translation>
    </message>
    <message>
        <source>Expired files deleted: %1.</source>
        <translation>Silinen süresi dolmuş dosyalar: %1.</translation>
    </message>
    <message>
        <source>Could not delete expired files: %1</source>
        <translation>Süresi dolmuş dosyalar silinemedi: %1</translation>
    </message>
    <message>
        <source>Media</source>
        <translation>Medya</translation>
    </message>
    <message>
        <source>&amp;Media…</source>
        <translation>&amp;Medya…</translation>
    </message>
</context>
<context>
    <name>ModelError</name>
    <message>
        <source>%1 %2 does not exist</source>
        <translation>%1 %2 yok</translation>
    </message>
    <message>
        <source>A contact with e-mail %1 already exists</source>
        <translation>%1 e-posta adresli bir kişi zaten var</translation>
    </message>
    <message>
        <source>A contact with phone %1 already exists</source>
        <translation>%1 telefonlu bir kişi zaten var</translation>
    </message>
    <message>
        <source>A pipeline named %1 already exists</source>
        <translation>%1 adlı bir satış hattı zaten var</translation>
    </message>
    <message>
        <source>A segment named %1 already exists</source>
        <translation>%1 adlı bir segment zaten var</translation>
    </message>
    <message>
        <source>A stage that still holds deals cannot be removed: move its deals first</source>
        <translation>İçinde fırsat olan bir aşama kaldırılamaz: önce fırsatlarını taşıyın</translation>
    </message>
    <message>
        <source>A template %1 (%2) already exists</source>
        <translation>%1 (%2) şablonu zaten var</translation>
    </message>
    <message>
        <source>A user with e-mail %1 already exists</source>
        <translation>%1 e-posta adresli bir kullanıcı zaten var</translation>
    </message>
    <message>
        <source>At most %1 webhook subscriptions; delete one first (webhooks/maxSubscriptions)</source>
        <translation>En fazla %1 webhook aboneliği olabilir; önce birini silin (webhooks/maxSubscriptions)</translation>
    </message>
    <message>
        <source>Cannot change task status from %1 to %2%3</source>
        <translation>Görev durumu %1 durumundan %2 durumuna geçirilemez%3</translation>
    </message>
    <message>
        <source>Contact %1 has no tag %2</source>
        <translation>%1 kişisinde %2 etiketi yok</translation>
    </message>
    <message>
        <source>Contact %1 is not in segment %2</source>
        <translation>%1 kişisi %2 segmentinde değil</translation>
    </message>
    <message>
        <source>Contact not found</source>
        <translation>Kişi bulunamadı</translation>
    </message>
    <message>
        <source>Contacts not found: %1</source>
        <translation>Bulunamayan kişiler: %1</translation>
    </message>
    <message>
        <source>Conversation %1 has no tag %2</source>
        <translation>%1 konuşmasında %2 etiketi yok</translation>
    </message>
    <message>
        <source>Deal %1 is already lost</source>
        <translation>%1 fırsatı zaten kaybedildi</translation>
    </message>
    <message>
        <source>Deal %1 is already won</source>
        <translation>%1 fırsatı zaten kazanıldı</translation>
    </message>
    <message>
        <source>Message %1 does not exist in this conversation</source>
        <translation>%1 mesajı bu konuşmada yok</translation>
    </message>
    <message>
        <source>Pipeline %1 holds %2 deal(s): move or delete them first</source>
        <translation>%1 satış hattında %2 fırsat var: önce onları taşıyın ya da silin</translation>
    </message>
    <message>
        <source>Required field missing</source>
        <translation>Zorunlu alan eksik</translation>
    </message>
    <message>
        <source>Template %1 (%2) is %3, not approved</source>
        <translation>%1 (%2) şablonunun durumu %3, onaylı değil</translation>
    </message>
    <message>
        <source>Template %1 (%2) is not an approved template</source>
        <translation>%1 (%2) onaylı bir şablon değil</translation>
    </message>
    <message>
        <source>The default pipeline cannot be deleted: make another pipeline the default</source>
        <translation>Varsayılan satış hattı silinemez: önce başka bir hattı varsayılan yapın</translation>
    </message>
    <message>
        <source>The file is empty</source>
        <translation>Dosya boş</translation>
    </message>
    <message>
        <source>The file&apos;s content is not %1%2</source>
        <translation>Dosyanın içeriği %1 değil%2</translation>
    </message>
    <message>
        <source>There must be a default pipeline: make another pipeline the default</source>
        <translation>Bir varsayılan satış hattı olmalı: başka bir hattı varsayılan yapın</translation>
    </message>
    <message>
        <source>User %1 does not exist</source>
        <translation>%1 kullanıcısı yok</translation>
    </message>
    <message>
        <source>Invalid data: channel must be one of %1</source>
        <translation>Geçersiz veri: kanal şunlardan biri olmalı: %1</translation>
    </message>
    <message>
        <source>Invalid data: give either secret or rotateSecret</source>
        <translation>Geçersiz veri: ya gizli anahtarı ya da yenilemeyi verin</translation>
    </message>
    <message>
        <source>Invalid data: status must be one of %1</source>
        <translation>Geçersiz veri: durum şunlardan biri olmalı: %1</translation>
    </message>
    <message>
        <source>Invalid data: unknown event %1</source>
        <translation>Geçersiz veri: bilinmeyen olay %1</translation>
    </message>
    <message>
        <source>Invalid data: unknown message status %1</source>
        <translation>Geçersiz veri: bilinmeyen mesaj durumu %1</translation>
    </message>
    <message>
        <source>Invalid data: unknown scope %1</source>
        <translation>Geçersiz veri: bilinmeyen kapsam %1</translation>
    </message>
    <message>
        <source>a body parameter is longer than 1024 characters</source>
        <translation>bir gövde parametresi 1024 karakterden uzun</translation>
    </message>
    <message>
        <source>a segment has at most %1 rules</source>
        <translation>bir segmentte en fazla %1 kural olabilir</translation>
    </message>
    <message>
        <source>a span for %1 must be at most %2d</source>
        <translation>%1 için süre en fazla %2 gün olabilir</translation>
    </message>
    <message>
        <source>already exists</source>
        <translation>zaten var</translation>
    </message>
    <message>
        <source>already exists in this language</source>
        <translation>bu dilde zaten var</translation>
    </message>
    <message>
        <source>already registered</source>
        <translation>zaten kayıtlı</translation>
    </message>
    <message>
        <source>applies only to weekly recurrence</source>
        <translation>yalnızca haftalık tekrarda geçerli</translation>
    </message>
    <message>
        <source>between needs a value [low, high] with two values</source>
        <translation>arasında işleci iki değer ister: [en düşük, en yüksek]</translation>
    </message>
    <message>
        <source>between needs two numbers or two strings</source>
        <translation>arasında işleci iki sayı ya da iki metin ister</translation>
    </message>
    <message>
        <source>cannot be combined with secret</source>
        <translation>gizli anahtarla birlikte verilemez</translation>
    </message>
    <message>
        <source>cannot be unset directly</source>
        <translation>doğrudan kaldırılamaz</translation>
    </message>
    <message>
        <source>cannot go from %1 to %2</source>
        <translation>%1 durumundan %2 durumuna geçilemez</translation>
    </message>
    <message>
        <source>contacts are added to static segments only</source>
        <translation>kişiler yalnızca statik segmentlere eklenir</translation>
    </message>
    <message>
        <source>content does not match its Content-Type</source>
        <translation>içerik, belirtilen türle (Content-Type) uyuşmuyor</translation>
    </message>
    <message>
        <source>customField key must be 1 to 64 characters of A-Z a-z 0-9 _ . -</source>
        <translation>özel alan anahtarı A-Z a-z 0-9 _ . - karakterlerinden 1 ile 64 karakter olmalı</translation>
    </message>
    <message>
        <source>does not exist: %1</source>
        <translation>yok: %1</translation>
    </message>
    <message>
        <source>field is required</source>
        <translation>alan zorunlu</translation>
    </message>
    <message>
        <source>field must be a string</source>
        <translation>alan metin olmalı</translation>
    </message>
    <message>
        <source>groups nest at most %1 levels</source>
        <translation>gruplar en fazla %1 düzey iç içe olabilir</translation>
    </message>
    <message>
        <source>is empty</source>
        <translation>boş</translation>
    </message>
    <message>
        <source>is not a valid e-mail address</source>
        <translation>geçerli bir e-posta adresi değil</translation>
    </message>
    <message>
        <source>is not a valid phone number</source>
        <translation>geçerli bir telefon numarası değil</translation>
    </message>
    <message>
        <source>is not an address field</source>
        <translation>bir adres alanı değil</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>zorunlu</translation>
    </message>
    <message>
        <source>is required: one of %1</source>
        <translation>zorunlu: şunlardan biri: %1</translation>
    </message>
    <message>
        <source>must be 1 to 40 lower-case letters, digits or underscores</source>
        <translation>1 ile 40 arası küçük harf, rakam ya da alt çizgi olmalı</translation>
    </message>
    <message>
        <source>must be AND or OR</source>
        <translation>VE (AND) ya da VEYA (OR) olmalı</translation>
    </message>
    <message>
        <source>must be a boolean</source>
        <translation>evet/hayır değeri olmalı</translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD)</source>
        <translation>bir tarih olmalı (YYYY-AA-GG)</translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset</source>
        <translation>bir tarih (YYYY-AA-GG) ya da Z veya saat farkı içeren bir ISO 8601 tarih-saat olmalı</translation>
    </message>
    <message>
        <source>must be a non-negative number</source>
        <translation>negatif olmayan bir sayı olmalı</translation>
    </message>
    <message>
        <source>must be a phone number in international form</source>
        <translation>uluslararası biçimde bir telefon numarası olmalı</translation>
    </message>
    <message>
        <source>must be a string</source>
        <translation>metin olmalı</translation>
    </message>
    <message>
        <source>must be a string of at most %1 characters</source>
        <translation>en fazla %1 karakterlik bir metin olmalı</translation>
    </message>
    <message>
        <source>must be a whole number from 1 to 1000</source>
        <translation>1 ile 1000 arasında bir tam sayı olmalı</translation>
    </message>
    <message>
        <source>must be a whole number of minutes from 0 to 525600 (one year)</source>
        <translation>0 ile 525600 (bir yıl) arasında tam sayı dakika olmalı</translation>
    </message>
    <message>
        <source>must be admin or agent</source>
        <translation>yönetici (admin) ya da temsilci (agent) olmalı</translation>
    </message>
    <message>
        <source>must be an ISO 4217 currency code such as TRY, USD, EUR</source>
        <translation>TRY, USD, EUR gibi bir ISO 4217 para birimi kodu olmalı</translation>
    </message>
    <message>
        <source>must be an array</source>
        <translation>bir liste olmalı</translation>
    </message>
    <message>
        <source>must be an array of day names (monday … sunday)</source>
        <translation>gün adlarından oluşan bir liste olmalı (monday … sunday)</translation>
    </message>
    <message>
        <source>must be an array of event names</source>
        <translation>olay adlarından oluşan bir liste olmalı</translation>
    </message>
    <message>
        <source>must be an array of stage objects</source>
        <translation>aşamalardan oluşan bir liste olmalı</translation>
    </message>
    <message>
        <source>must be an array of strings of at most 64 characters</source>
        <translation>en fazla 64 karakterlik metinlerden oluşan bir liste olmalı</translation>
    </message>
    <message>
        <source>must be an integer from 0 to 100</source>
        <translation>0 ile 100 arasında bir tam sayı olmalı</translation>
    </message>
    <message>
        <source>must be an integer from 0 to 3650 (0: never)</source>
        <translation>0 ile 3650 arasında bir tam sayı olmalı (0: hiçbir zaman)</translation>
    </message>
    <message>
        <source>must be an international number: + and 7 to 15 digits</source>
        <translation>uluslararası bir numara olmalı: + ve 7 ile 15 rakam</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>bir nesne olmalı</translation>
    </message>
    <message>
        <source>must be an object (a rule or a group)</source>
        <translation>bir nesne olmalı (bir kural ya da bir grup)</translation>
    </message>
    <message>
        <source>must be an object with enabled and before (minutes)</source>
        <translation>enabled ve before (dakika) alanlarını içeren bir nesne olmalı</translation>
    </message>
    <message>
        <source>must be an object with frequency, interval, daysOfWeek, endDate</source>
        <translation>frequency, interval, daysOfWeek, endDate alanlarını içeren bir nesne olmalı</translation>
    </message>
    <message>
        <source>must be an object with name, key, probability, rottenDays</source>
        <translation>name, key, probability, rottenDays alanlarını içeren bir nesne olmalı</translation>
    </message>
    <message>
        <source>must be an object with rules and logic</source>
        <translation>rules ve logic alanlarını içeren bir nesne olmalı</translation>
    </message>
    <message>
        <source>must be an object with street, city, country</source>
        <translation>street, city, country alanlarını içeren bir nesne olmalı</translation>
    </message>
    <message>
        <source>must be at most %1 characters</source>
        <translation>en fazla %1 karakter olmalı</translation>
    </message>
    <message>
        <source>must be in international form (+ and digits)</source>
        <translation>uluslararası biçimde olmalı (+ ve rakamlar)</translation>
    </message>
    <message>
        <source>must be in international format with a leading +</source>
        <translation>başında + olan uluslararası biçimde olmalı</translation>
    </message>
    <message>
        <source>must be one of %1</source>
        <translation>şunlardan biri olmalı: %1</translation>
    </message>
    <message>
        <source>must be one of the stages of pipeline %1: %2</source>
        <translation>%1 satış hattının aşamalarından biri olmalı: %2</translation>
    </message>
    <message>
        <source>must be open, pending or closed</source>
        <translation>açık, beklemede ya da kapalı olmalı</translation>
    </message>
    <message>
        <source>must be the sender&apos;s address on the channel</source>
        <translation>gönderenin kanaldaki adresi olmalı</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>doğru ya da yanlış olmalı</translation>
    </message>
    <message>
        <source>must have at least %1 characters</source>
        <translation>en az %1 karakter olmalı</translation>
    </message>
    <message>
        <source>must have at most %1 characters</source>
        <translation>en fazla %1 karakter olmalı</translation>
    </message>
    <message>
        <source>must have at most %1 tags</source>
        <translation>en fazla %1 etiket olabilir</translation>
    </message>
    <message>
        <source>must have at most 30 open stages</source>
        <translation>en fazla 30 açık aşama olabilir</translation>
    </message>
    <message>
        <source>must hold at most %1 ids</source>
        <translation>en fazla %1 kimlik içerebilir</translation>
    </message>
    <message>
        <source>must hold at most %1 components</source>
        <translation>en fazla %1 bileşen içerebilir</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>boş olmamalı</translation>
    </message>
    <message>
        <source>name and key must be strings</source>
        <translation>ad ve anahtar metin olmalı</translation>
    </message>
    <message>
        <source>not an approved template</source>
        <translation>onaylı bir şablon değil</translation>
    </message>
    <message>
        <source>of a %1 deal is %2</source>
        <translation>%1 fırsatta %2 olur</translation>
    </message>
    <message>
        <source>operator %1 is not valid for %2 (%3)</source>
        <translation>%1 işleci %2 alanı için geçerli değil (%3)</translation>
    </message>
    <message>
        <source>operator is required</source>
        <translation>işleç zorunlu</translation>
    </message>
    <message>
        <source>operator must be a string</source>
        <translation>işleç metin olmalı</translation>
    </message>
    <message>
        <source>parameters must be an array</source>
        <translation>parametreler bir liste olmalı</translation>
    </message>
    <message>
        <source>repeats the body component</source>
        <translation>gövde bileşenini yineliyor</translation>
    </message>
    <message>
        <source>repeats the stage %1</source>
        <translation>%1 aşamasını yineliyor</translation>
    </message>
    <message>
        <source>template %1 (%2) needs %3 body parameters, got %4</source>
        <translation>%1 (%2) şablonu %3 gövde parametresi ister, %4 verildi</translation>
    </message>
    <message>
        <source>unknown channel</source>
        <translation>bilinmeyen kanal</translation>
    </message>
    <message>
        <source>unknown event %1</source>
        <translation>bilinmeyen olay %1</translation>
    </message>
    <message>
        <source>unknown field %1</source>
        <translation>bilinmeyen alan %1</translation>
    </message>
    <message>
        <source>unknown logic %1 (use AND or OR)</source>
        <translation>bilinmeyen mantık %1 (AND ya da OR kullanın)</translation>
    </message>
    <message>
        <source>unknown message</source>
        <translation>bilinmeyen mesaj</translation>
    </message>
    <message>
        <source>unknown operator %1</source>
        <translation>bilinmeyen işleç %1</translation>
    </message>
    <message>
        <source>unknown scope %1</source>
        <translation>bilinmeyen kapsam %1</translation>
    </message>
    <message>
        <source>unknown status</source>
        <translation>bilinmeyen durum</translation>
    </message>
    <message>
        <source>unknown user</source>
        <translation>bilinmeyen kullanıcı</translation>
    </message>
    <message>
        <source>value for %1 must be a date (YYYY-MM-DD), an ISO 8601 date-time or a span like 30d</source>
        <translation>%1 değeri bir tarih (YYYY-AA-GG), bir ISO 8601 tarih-saat ya da 30d gibi bir süre olmalı</translation>
    </message>
    <message>
        <source>value for %1 must be a non-empty string or a number</source>
        <translation>%1 değeri boş olmayan bir metin ya da bir sayı olmalı</translation>
    </message>
    <message>
        <source>value for %1 must be a number</source>
        <translation>%1 değeri bir sayı olmalı</translation>
    </message>
    <message>
        <source>value for %1 must be a string</source>
        <translation>%1 değeri metin olmalı</translation>
    </message>
    <message>
        <source>value for %1 must be at most %2 characters</source>
        <translation>%1 değeri en fazla %2 karakter olmalı</translation>
    </message>
    <message>
        <source>value for %1 must not be empty (use isEmpty to find empty fields)</source>
        <translation>%1 değeri boş olmamalı (boş alanları bulmak için &quot;boş&quot; işlecini kullanın)</translation>
    </message>
    <message>
        <source>value for %1 must be between 0 and 100</source>
        <translation>%1 değeri 0 ile 100 arasında olmalı</translation>
    </message>
    <message>
        <source>value for phone must contain digits</source>
        <translation>telefon değeri rakam içermeli</translation>
    </message>
    <message>
        <source>value for sentiment must be positive, negative or neutral</source>
        <translation>duygu değeri olumlu, olumsuz ya da nötr olmalı</translation>
    </message>
    <message>
        <source>value for %1 must not be negative</source>
        <translation>%1 değeri negatif olmamalı</translation>
    </message>
    <message>
        <source>value is required for operator %1</source>
        <translation>%1 işleci bir değer ister</translation>
    </message>
    <message>
        <source>value must be a single value; only between takes [low, high]</source>
        <translation>değer tek bir değer olmalı; yalnızca &quot;arasında&quot; işleci [en düşük, en yüksek] alır</translation>
    </message>
    <message>
        <source> (it looks like %1)</source>
        <translation> (%1 gibi görünüyor)</translation>
    </message>
    <message>
        <source>not configured</source>
        <translation>ayarlanmamış</translation>
    </message>
    <message>
        <source>Action %1 is not available</source>
        <translation>%1 eylemi kullanılamıyor</translation>
    </message>
    <message>
        <source>The body must be a JSON object</source>
        <translation>Gövde bir JSON nesnesi olmalı</translation>
    </message>
    <message>
        <source>are required for a dynamic segment</source>
        <translation>dinamik bir segment için zorunlu</translation>
    </message>
    <message>
        <source>is required (event names, or &quot;*&quot;)</source>
        <translation>zorunlu (olay adları ya da &quot;*&quot;)</translation>
    </message>
    <message>
        <source>must be a language code such as en_US or tr</source>
        <translation>en_US ya da tr gibi bir dil kodu olmalı</translation>
    </message>
    <message>
        <source>must be a number from %1 to %2</source>
        <translation>%1 ile %2 arasında bir sayı olmalı</translation>
    </message>
    <message>
        <source>must be a string, or true to generate one</source>
        <translation>bir metin ya da yenisini oluşturmak için true olmalı</translation>
    </message>
    <message>
        <source>must be an absolute https URL</source>
        <translation>tam bir https adresi olmalı</translation>
    </message>
    <message>
        <source>must be an array of at most %1 buttons</source>
        <translation>en fazla %1 düğmeden oluşan bir liste olmalı</translation>
    </message>
    <message>
        <source>must be an e-mail address</source>
        <translation>bir e-posta adresi olmalı</translation>
    </message>
    <message>
        <source>must be an http(s) URL</source>
        <translation>bir http(s) adresi olmalı</translation>
    </message>
    <message>
        <source>must be lower-case letters, digits and _</source>
        <translation>küçük harf, rakam ve _ karakterlerinden oluşmalı</translation>
    </message>
    <message>
        <source>must have %1 to %2 characters</source>
        <translation>%1 ile %2 karakter arasında olmalı</translation>
    </message>
    <message>
        <source>must not carry a user name or password</source>
        <translation>kullanıcı adı ya da parola içermemeli</translation>
    </message>
    <message>
        <source>must use https</source>
        <translation>https kullanmalı</translation>
    </message>
    <message>
        <source>must use https (plain http to loopback needs webhooks/allowInsecureLocal=true)</source>
        <translation>https kullanmalı (bu bilgisayara düz http için webhooks/allowInsecureLocal=true gerekir)</translation>
    </message>
    <message>
        <source>needs at least one open stage besides won and lost</source>
        <translation>kazanıldı ve kaybedildi dışında en az bir açık aşama gerekir</translation>
    </message>
    <message>
        <source>or %1 is required</source>
        <translation>bu alan ya da %1 doldurulmalı</translation>
    </message>
    <message>
        <source>refused: the receiver&apos;s address is not allowed (webhooks/allowedTargets)</source>
        <translation>reddedildi: alıcının adresine izin verilmiyor (webhooks/allowedTargets)</translation>
    </message>
    <message>
        <source>Invalid data: %1</source>
        <translation>Geçersiz veri: %1</translation>
    </message>
    <message>
        <source>Required field missing: %1</source>
        <translation>Zorunlu alan eksik: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Scope %1 needs the admin role</source>
        <translation>%1 kapsamı yönetici rolü ister</translation>
    </message>
    <message>
        <source>scope %1 needs the admin role</source>
        <translation>%1 kapsamı yönetici rolü ister</translation>
    </message>
    <message>
        <source>The last active admin cannot be deactivated</source>
        <translation>Son etkin yönetici devre dışı bırakılamaz</translation>
    </message>
    <message>
        <source>The last active admin cannot become an agent</source>
        <translation>Son etkin yönetici temsilci yapılamaz</translation>
    </message>
    <message>
        <source>Task %1 is already closed</source>
        <translation>%1 görevi zaten kapalı</translation>
    </message>
    <message>
        <source>Conversation %1 already has a contact</source>
        <translation>%1 konuşmasının zaten bir kişisi var</translation>
    </message>
    <message>
        <source>Say who the visitor is: a name, an e-mail address or a phone number</source>
        <translation>Ziyaretçinin kim olduğunu belirtin: bir ad, e-posta adresi ya da telefon numarası</translation>
    </message>
    <message>
        <source>This visitor has already said who they are</source>
        <translation>Bu ziyaretçi kim olduğunu zaten söyledi</translation>
    </message>
    <message>
        <source>a name, email or phone is required</source>
        <translation>bir ad, e-posta ya da telefon gerekli</translation>
    </message>
    <message>
        <source>already set</source>
        <translation>zaten belirlenmiş</translation>
    </message>
    <message>
        <source>The disk holding the database is full: this change was not saved. Reading still works; writing works again once space is freed</source>
        <translation>Veritabanının bulunduğu disk dolu: bu değişiklik kaydedilmedi. Okuma çalışıyor; yer açıldığında yazma yeniden çalışır</translation>
    </message>
    <message>
        <source>field names must be 1 to %1 characters</source>
        <translation>alan adları 1 ile %1 karakter arasında olmalı</translation>
    </message>
    <message>
        <source>must be at most %1 bytes as JSON</source>
        <translation>JSON olarak en fazla %1 bayt olmalı</translation>
    </message>
    <message>
        <source>must have at most %1 fields</source>
        <translation>en fazla %1 alan içermeli</translation>
    </message>
    <message>
        <source>the value of %1 must be at most %2 characters</source>
        <translation>%1 alanının değeri en fazla %2 karakter olmalı</translation>
    </message>
    <message>
        <source>Another change saved the same value first: this one was not saved</source>
        <translation>Aynı değeri başka bir değişiklik önce kaydetti: bu değişiklik kaydedilmedi</translation>
    </message>
    <message>
        <source>Channel unavailable</source>
        <translation>Kanal kullanılamıyor</translation>
    </message>
    <message>
        <source>Rate limited</source>
        <translation>Gönderim sınırına ulaşıldı</translation>
    </message>
    <message>
        <source>Not a file: %1</source>
        <translation>Bir dosya değil: %1</translation>
    </message>
    <message>
        <source>must be a file</source>
        <translation>bir dosya olmalı</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 okunamıyor: %2</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>okunamıyor</translation>
    </message>
    <message>
        <source>Invalid phone</source>
        <translation>Geçersiz telefon</translation>
    </message>
    <message>
        <source>must be an E.164 number (+ and 7 to 15 digits)</source>
        <translation>bir E.164 numarası olmalı (+ ve 7 ile 15 rakam)</translation>
    </message>
    <message>
        <source>The contact has no widget conversation to send into</source>
        <translation>Kişinin gönderilebilecek bir web sohbeti yok</translation>
    </message>
    <message>
        <source>has no widget conversation</source>
        <translation>web sohbeti yok</translation>
    </message>
    <message>
        <source>The contact has no phone number to send to</source>
        <translation>Kişinin gönderilebilecek bir telefon numarası yok</translation>
    </message>
    <message>
        <source>The contact has no %1 conversation to send into</source>
        <translation>Kişinin gönderilebilecek bir %1 konuşması yok</translation>
    </message>
    <message>
        <source>has no phone number</source>
        <translation>telefon numarası yok</translation>
    </message>
    <message>
        <source>has no conversation on the channel</source>
        <translation>bu kanalda konuşması yok</translation>
    </message>
    <message>
        <source>File too large: at most %1 bytes</source>
        <translation>Dosya çok büyük: en fazla %1 bayt</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Kullanıcı</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API anahtarı</translation>
    </message>
    <message>
        <source>Invalid data: name is longer than 200 characters</source>
        <translation>Geçersiz veri: ad 200 karakterden uzun</translation>
    </message>
    <message>
        <source>at most 200 characters</source>
        <translation>en fazla 200 karakter</translation>
    </message>
    <message>
        <source>the last active admin</source>
        <translation>son etkin yönetici</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kişi</translation>
    </message>
    <message>
        <source>Segment %1 is dynamic: its members follow its filters and cannot be added or removed by hand</source>
        <translation>%1 segmenti dinamik: üyeleri filtrelerine göre belirlenir, elle eklenip çıkarılamaz</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>Segment</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Deal</source>
        <translation>Fırsat</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Satış hattı</translation>
    </message>
    <message>
        <source>Bulk send</source>
        <translation>Toplu gönderim</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>Konuşma</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Mesaj</translation>
    </message>
    <message>
        <source>must be objects {type: &quot;quick_reply&quot;, text} with 1 to 25 characters</source>
        <translation>1 ile 25 karakterlik {type: &quot;quick_reply&quot;, text} nesneleri olmalı</translation>
    </message>
    <message>
        <source>body parameters must be {type: &quot;text&quot;, text}</source>
        <translation>gövde parametreleri {type: &quot;text&quot;, text} olmalı</translation>
    </message>
    <message>
        <source>sub_type must be quick_reply</source>
        <translation>sub_type quick_reply olmalı</translation>
    </message>
    <message>
        <source>index must name one of the template&apos;s %1 buttons (from 0)</source>
        <translation>index, şablonun %1 düğmesinden birini göstermeli (0’dan başlayarak)</translation>
    </message>
    <message>
        <source>a quick_reply button takes one parameter {type: &quot;payload&quot;, payload}</source>
        <translation>bir quick_reply düğmesi tek parametre alır: {type: &quot;payload&quot;, payload}</translation>
    </message>
    <message>
        <source>type must be body or button</source>
        <translation>type, body ya da button olmalı</translation>
    </message>
    <message>
        <source>placeholders must be numbered {{1}} to {{%1}} without gaps</source>
        <translation>yer tutucular {{1}} ile {{%1}} arasında boşluksuz numaralanmalı</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Şablon</translation>
    </message>
    <message>
        <source> (reopen it to pending first)</source>
        <translation> (önce yeniden beklemeye alın)</translation>
    </message>
    <message>
        <source>user</source>
        <translation>kullanıcı</translation>
    </message>
    <message>
        <source>contact</source>
        <translation>kişi</translation>
    </message>
    <message>
        <source>deal</source>
        <translation>fırsat</translation>
    </message>
    <message>
        <source>must be in the future</source>
        <translation>ileri bir zaman olmalı</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Görev</translation>
    </message>
    <message>
        <source>Incoming webhook</source>
        <translation>Gelen webhook</translation>
    </message>
    <message>
        <source>Missing X-Service-Signature: this webhook requires signed calls</source>
        <translation>X-Service-Signature eksik: bu webhook imzalı çağrı ister</translation>
    </message>
    <message>
        <source>X-Service-Signature does not match the body</source>
        <translation>X-Service-Signature gövdeyle uyuşmuyor</translation>
    </message>
    <message>
        <source>Invalid data: event must be a non-empty string</source>
        <translation>Geçersiz veri: olay boş olmayan bir metin olmalı</translation>
    </message>
    <message>
        <source>must be a non-empty string of at most 100 characters</source>
        <translation>en fazla 100 karakterlik boş olmayan bir metin olmalı</translation>
    </message>
    <message>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>Teslimat</translation>
    </message>
    <message>
        <source>Webhook verification failed</source>
        <translation>Webhook doğrulaması başarısız</translation>
    </message>
    <message>
        <source>Missing X-Hub-Signature-256 header</source>
        <translation>X-Hub-Signature-256 başlığı eksik</translation>
    </message>
    <message>
        <source>X-Hub-Signature-256 does not match the body</source>
        <translation>X-Hub-Signature-256 gövdeyle uyuşmuyor</translation>
    </message>
    <message>
        <source>The webhook body must be a JSON object</source>
        <translation>Webhook gövdesi bir JSON nesnesi olmalı</translation>
    </message>
    <message>
        <source>This endpoint takes multipart/form-data (Content-Type: multipart/form-data; boundary=…)</source>
        <translation>Bu uç nokta multipart/form-data alır (Content-Type: multipart/form-data; boundary=…)</translation>
    </message>
    <message>
        <source>Malformed multipart body: %1</source>
        <translation>Bozuk multipart gövde: %1</translation>
    </message>
    <message>
        <source>Required field missing: file</source>
        <translation>Zorunlu alan eksik: dosya</translation>
    </message>
    <message>
        <source>is required (a multipart file part)</source>
        <translation>zorunlu (bir multipart dosya parçası)</translation>
    </message>
    <message>
        <source>Send one file per request</source>
        <translation>Her istekte bir dosya gönderin</translation>
    </message>
    <message>
        <source>was given more than once</source>
        <translation>birden çok kez verildi</translation>
    </message>
    <message>
        <source>file must be a file part (Content-Disposition with a filename)</source>
        <translation>file bir dosya parçası olmalı (dosya adlı Content-Disposition)</translation>
    </message>
    <message>
        <source>Invalid data: %1 given more than once</source>
        <translation>Geçersiz veri: %1 birden çok kez verildi</translation>
    </message>
    <message>
        <source>given more than once</source>
        <translation>birden çok kez verildi</translation>
    </message>
    <message>
        <source>Invalid data: %1 must be a text field, not a file</source>
        <translation>Geçersiz veri: %1 bir metin alanı olmalı, dosya değil</translation>
    </message>
    <message>
        <source>must be text</source>
        <translation>metin olmalı</translation>
    </message>
    <message>
        <source>Invalid data: %1 is not valid UTF-8</source>
        <translation>Geçersiz veri: %1 geçerli UTF-8 değil</translation>
    </message>
    <message>
        <source>must be UTF-8 text</source>
        <translation>UTF-8 metin olmalı</translation>
    </message>
    <message>
        <source>Invalid data: %1 must be at most %2 characters</source>
        <translation>Geçersiz veri: %1 en fazla %2 karakter olmalı</translation>
    </message>
    <message>
        <source>too long</source>
        <translation>çok uzun</translation>
    </message>
    <message>
        <source>holds %1 deal(s)</source>
        <translation>%1 fırsat içeriyor</translation>
    </message>
    <message>
        <source>must be a string or null</source>
        <translation>metin ya da boş (null) olmalı</translation>
    </message>
    <message>
        <source>must be an array of strings</source>
        <translation>metinlerden oluşan bir liste olmalı</translation>
    </message>
    <message>
        <source>must be non-empty strings of at most %1 characters</source>
        <translation>en fazla %1 karakterlik, boş olmayan metinler olmalı</translation>
    </message>
    <message>
        <source>Query parameter %1 %2</source>
        <translation>Sorgu parametresi %1: %2</translation>
    </message>
    <message>
        <source>must be a positive integer</source>
        <translation>pozitif bir tam sayı olmalı</translation>
    </message>
    <message>
        <source>must be a date (YYYY-MM-DD) or an ISO 8601 date-time</source>
        <translation>bir tarih (YYYY-AA-GG) ya da ISO 8601 tarih-saat olmalı</translation>
    </message>
    <message>
        <source>must be a date or date-time</source>
        <translation>bir tarih ya da tarih-saat olmalı</translation>
    </message>
    <message>
        <source>must be a number</source>
        <translation>bir sayı olmalı</translation>
    </message>
    <message>
        <source>An agent sees only their own API keys</source>
        <translation>Bir temsilci yalnızca kendi API anahtarlarını görür</translation>
    </message>
    <message>
        <source>Only an admin makes API keys for other users</source>
        <translation>Başka kullanıcılar için API anahtarını yalnızca bir yönetici oluşturabilir</translation>
    </message>
    <message>
        <source>User no longer exists or was deactivated</source>
        <translation>Kullanıcı artık yok ya da devre dışı bırakıldı</translation>
    </message>
    <message>
        <source>E-mail or password is wrong</source>
        <translation>E-posta ya da parola yanlış</translation>
    </message>
    <message>
        <source>Too many failed password checks; try again in %1 s</source>
        <translation>Çok fazla başarısız parola denemesi; %1 sn sonra yeniden deneyin</translation>
    </message>
    <message>
        <source>Refresh token is invalid, used or expired</source>
        <translation>Yenileme anahtarı geçersiz, kullanılmış ya da süresi dolmuş</translation>
    </message>
    <message>
        <source>must be {type: agent|ai|bot|system, name}</source>
        <translation>{type: agent|ai|bot|system, name} biçiminde olmalı</translation>
    </message>
    <message>
        <source>Required field missing: %1 or %2</source>
        <translation>Zorunlu alan eksik: %1 ya da %2</translation>
    </message>
    <message>
        <source>%1 or %2 is required</source>
        <translation>%1 ya da %2 zorunlu</translation>
    </message>
    <message>
        <source>Required field missing: a JSON body is required</source>
        <translation>Zorunlu alan eksik: bir JSON gövdesi gerekli</translation>
    </message>
    <message>
        <source>must be an ISO 4217 currency code</source>
        <translation>bir ISO 4217 para birimi kodu olmalı</translation>
    </message>
    <message>
        <source>Media not found</source>
        <translation>Medya bulunamadı</translation>
    </message>
    <message>
        <source>Invalid data: %1 must be one of %2</source>
        <translation>Geçersiz veri: %1 şunlardan biri olmalı: %2</translation>
    </message>
    <message>
        <source>Uploads are not configured</source>
        <translation>Dosya yükleme ayarlanmamış</translation>
    </message>
    <message>
        <source>Invalid data: %1 and %2 must be strings</source>
        <translation>Geçersiz veri: %1 ve %2 metin olmalı</translation>
    </message>
    <message>
        <source>Required field missing: %1 (or %2)</source>
        <translation>Zorunlu alan eksik: %1 (ya da %2)</translation>
    </message>
    <message>
        <source>Template %1 is not an approved template</source>
        <translation>%1 onaylı bir şablon değil</translation>
    </message>
    <message>
        <source>Required field missing: %1 (template %2 exists in %3)</source>
        <translation>Zorunlu alan eksik: %1 (%2 şablonu şu dillerde var: %3)</translation>
    </message>
    <message>
        <source>Invalid data: bulk sends go to whatsapp, telegram or instagram</source>
        <translation>Geçersiz veri: toplu gönderimler yalnızca WhatsApp, Telegram ya da Instagram’a gider</translation>
    </message>
    <message>
        <source>widget visitors cannot get bulk sends</source>
        <translation>sohbet penceresi ziyaretçilerine toplu gönderim yapılamaz</translation>
    </message>
    <message>
        <source>Required field missing: either %1 or %2</source>
        <translation>Zorunlu alan eksik: %1 ya da %2 verilmeli</translation>
    </message>
    <message>
        <source>give %1 or %2</source>
        <translation>%1 ya da %2 verin</translation>
    </message>
    <message>
        <source>must be an array of 1 to %1 strings</source>
        <translation>1 ile %1 arası metinden oluşan bir liste olmalı</translation>
    </message>
    <message>
        <source>must be strings</source>
        <translation>metin olmalı</translation>
    </message>
    <message>
        <source>Not a %1 webhook: &quot;object&quot; must be &quot;%1&quot;</source>
        <translation>%1 webhook’u değil: &quot;object&quot; &quot;%1&quot; olmalı</translation>
    </message>
    <message>
        <source>must be %1</source>
        <translation>%1 olmalı</translation>
    </message>
    <message>
        <source>The webhook has no &quot;entry&quot; array</source>
        <translation>Webhook’ta &quot;entry&quot; listesi yok</translation>
    </message>
    <message>
        <source>Every &quot;entry&quot; item must be an object</source>
        <translation>Her &quot;entry&quot; öğesi bir nesne olmalı</translation>
    </message>
    <message>
        <source>items must be objects</source>
        <translation>öğeler nesne olmalı</translation>
    </message>
    <message>
        <source>is required (null unassigns)</source>
        <translation>zorunlu (null atamayı kaldırır)</translation>
    </message>
    <message>
        <source>must be a user id or null</source>
        <translation>bir kullanıcı kimliği ya da boş (null) olmalı</translation>
    </message>
    <message>
        <source>Missing X-Telegram-Bot-Api-Secret-Token header</source>
        <translation>X-Telegram-Bot-Api-Secret-Token başlığı eksik</translation>
    </message>
    <message>
        <source>X-Telegram-Bot-Api-Secret-Token does not match</source>
        <translation>X-Telegram-Bot-Api-Secret-Token eşleşmiyor</translation>
    </message>
    <message>
        <source>The webhook body must be a Telegram Update (a JSON object)</source>
        <translation>Webhook gövdesi bir Telegram güncellemesi (bir JSON nesnesi) olmalı</translation>
    </message>
    <message>
        <source>Not a Telegram Update: %1</source>
        <translation>Telegram güncellemesi değil: %1</translation>
    </message>
    <message>
        <source>Invalid data: %1 must have %2 to 1024 characters</source>
        <translation>Geçersiz veri: %1 %2 ile 1024 karakter arası olmalı</translation>
    </message>
    <message>
        <source>%1 to 1024 characters</source>
        <translation>%1 ile 1024 karakter arası</translation>
    </message>
    <message>
        <source>User no longer exists</source>
        <translation>Kullanıcı artık yok</translation>
    </message>
    <message>
        <source>Only an admin changes roles and access</source>
        <translation>Rolleri ve erişimi yalnızca bir yönetici değiştirebilir</translation>
    </message>
    <message>
        <source>The current password is wrong</source>
        <translation>Geçerli parola yanlış</translation>
    </message>
    <message>
        <source>Unknown webhook %1</source>
        <translation>Bilinmeyen webhook %1</translation>
    </message>
    <message>
        <source>Too Many Requests</source>
        <translation>Çok fazla istek</translation>
    </message>
    <message>
        <source>Authentication required: send Authorization: Bearer &lt;visitor token&gt;</source>
        <translation>Kimlik doğrulaması gerekli: Authorization: Bearer &lt;ziyaretçi anahtarı&gt; gönderin</translation>
    </message>
    <message>
        <source>Invalid visitor token</source>
        <translation>Geçersiz ziyaretçi anahtarı</translation>
    </message>
    <message>
        <source>Too many open event streams for this visitor (at most %1)</source>
        <translation>Bu ziyaretçinin açık olay akışı çok fazla (en fazla %1)</translation>
    </message>
    <message>
        <source>Too many open event streams; try again later</source>
        <translation>Açık olay akışı çok fazla; daha sonra yeniden deneyin</translation>
    </message>
    <message>
        <source>must have at most %1 steps</source>
        <translation>en fazla %1 adım içerebilir</translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2</source>
        <translation>%1 ile %2 arasında bir tam sayı olmalı</translation>
    </message>
    <message>
        <source>must be later than %1</source>
        <translation>%1 değerinden sonra olmalı</translation>
    </message>
    <message>
        <source>must be an array of weekdays from 1 (Monday) to 7</source>
        <translation>1 (Pazartesi) ile 7 arasında gün numaralarından oluşan bir dizi olmalı</translation>
    </message>
    <message>
        <source>must be a date-time with a time zone</source>
        <translation>saat dilimi içeren bir tarih-saat olmalı</translation>
    </message>
    <message>
        <source>A campaign cannot go from %1 to %2</source>
        <translation>Kampanya %1 durumundan %2 durumuna geçemez</translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation>Kampanya</translation>
    </message>
    <message>
        <source>Unknown merge field: %1</source>
        <translation>Bilinmeyen birleştirme alanı: %1</translation>
    </message>
    <message>
        <source>A campaign can be changed only while DRAFT or SCHEDULED (it is %1)</source>
        <translation>Kampanya yalnızca TASLAK ya da ZAMANLANMIŞ iken değiştirilebilir (şu an %1)</translation>
    </message>
    <message>
        <source>A campaign can be deleted only while DRAFT or SCHEDULED (it is %1)</source>
        <translation>Kampanya yalnızca TASLAK ya da ZAMANLANMIŞ iken silinebilir (şu an %1)</translation>
    </message>
    <message>
        <source>No one in the audience can be reached on this channel</source>
        <translation>Hedef kitledeki hiç kimseye bu kanaldan ulaşılamıyor</translation>
    </message>
    <message>
        <source>No message could be delivered</source>
        <translation>Hiçbir ileti teslim edilemedi</translation>
    </message>
    <message>
        <source>Unsubscribe entry</source>
        <translation>Abonelikten çıkış kaydı</translation>
    </message>
    <message>
        <source>must have at most %1 items</source>
        <translation>en fazla %1 öğe içerebilir</translation>
    </message>
    <message>
        <source>WhatsApp is not set up (Settings, Channels)</source>
        <translation>WhatsApp kurulmamış (Ayarlar, Kanallar)</translation>
    </message>
    <message>
        <source>E-mail sending is not set up (Settings, E-mail)</source>
        <translation>E-posta gönderimi ayarlanmamış (Ayarlar, E-posta)</translation>
    </message>
    <message>
        <source>Paused after %1 send errors in a row: %2</source>
        <translation>Art arda %1 gönderim hatasından sonra duraklatıldı: %2</translation>
    </message>
    <message>
        <source>none (no encryption) is allowed only for a loopback host</source>
        <translation>none (şifreleme yok) yalnızca yerel (loopback) bir sunucu için kullanılabilir</translation>
    </message>
    <message>
        <source>must be an RSA private key in PEM</source>
        <translation>PEM biçiminde bir RSA özel anahtarı olmalı</translation>
    </message>
    <message>
        <source>give recipientId, or envelopeTo or messageId naming it</source>
        <translation>recipientId verin ya da onu adlandıran envelopeTo veya messageId verin</translation>
    </message>
    <message>
        <source>Campaign recipient</source>
        <translation>Kampanya alıcısı</translation>
    </message>
    <message>
        <source>SMS sending is not set up (Settings, SMS)</source>
        <translation>SMS gönderimi ayarlanmamış (Ayarlar, SMS)</translation>
    </message>
    <message>
        <source>Missing X-Twilio-Signature header</source>
        <translation>X-Twilio-Signature başlığı eksik</translation>
    </message>
    <message>
        <source>X-Twilio-Signature does not match</source>
        <translation>X-Twilio-Signature eşleşmiyor</translation>
    </message>
    <message>
        <source>A status callback needs MessageSid and MessageStatus</source>
        <translation>Durum bildirimi MessageSid ve MessageStatus içermeli</translation>
    </message>
    <message>
        <source>not a valid URL</source>
        <translation>geçerli bir URL değil</translation>
    </message>
    <message>
        <source>plain http is allowed only on a loopback address</source>
        <translation>şifresiz http yalnızca bu makinedeki (loopback) bir adreste kullanılabilir</translation>
    </message>
    <message>
        <source>the scheme must be https</source>
        <translation>şema https olmalı</translation>
    </message>
    <message>
        <source>must be https (http only on a loopback address), got &quot;%1&quot;: %2</source>
        <translation>https olmalı (http yalnızca bu makinedeki bir adreste); girilen &quot;%1&quot;: %2</translation>
    </message>
    <message>
        <source>must be an account SID (AC and 32 hex digits), got &quot;%1&quot;</source>
        <translation>bir hesap SID&apos;si olmalı (AC ve 32 onaltılık rakam); girilen &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must be a phone number (E.164, +905321234567) or an alphanumeric sender id of at most 11 characters, got &quot;%1&quot;</source>
        <translation>bir telefon numarası (E.164, +905321234567) ya da en çok 11 karakterlik harf ve rakamlardan oluşan bir gönderen adı olmalı; girilen &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must be an integer from %1 to %2</source>
        <translation>%1 ile %2 arasında bir tam sayı olmalı</translation>
    </message>
    <message>
        <source>must be an array of at most %1 texts</source>
        <translation>en çok %1 metinden oluşan bir dizi olmalı</translation>
    </message>
    <message>
        <source>Knowledge entry</source>
        <translation>Bilgi bankası kaydı</translation>
    </message>
    <message>
        <source>The file holds no rows</source>
        <translation>Dosyada hiç satır yok</translation>
    </message>
    <message>
        <source>The file has no column %1 (columns: %2)</source>
        <translation>Dosyada %1 sütunu yok (sütunlar: %2)</translation>
    </message>
    <message>
        <source>Unchanged: the same as entry %1</source>
        <translation>Değişmedi: %1 kaydıyla aynı</translation>
    </message>
    <message>
        <source>must be a language code such as tr or en</source>
        <translation>tr ya da en gibi bir dil kodu olmalı</translation>
    </message>
    <message>
        <source>a tag must be at most %1 characters</source>
        <translation>bir etiket en fazla %1 karakter olmalı</translation>
    </message>
    <message>
        <source>must hold at most %1 tags</source>
        <translation>en fazla %1 etiket içermeli</translation>
    </message>
    <message>
        <source>must hold at most %1 turns</source>
        <translation>en fazla %1 konuşma adımı içermeli</translation>
    </message>
    <message>
        <source>must be an object {role, content}</source>
        <translation>{role, content} biçiminde bir nesne olmalı</translation>
    </message>
    <message>
        <source>must be an integer</source>
        <translation>bir tam sayı olmalı</translation>
    </message>
    <message>
        <source>must be 1 or -1 for THUMBS</source>
        <translation>THUMBS için 1 ya da -1 olmalı</translation>
    </message>
    <message>
        <source>must be 1 to 5 for SCALE</source>
        <translation>SCALE için 1 ile 5 arasında olmalı</translation>
    </message>
    <message>
        <source>AI answer</source>
        <translation>Asistan yanıtı</translation>
    </message>
    <message>
        <source>The period must end after it starts</source>
        <translation>Dönemin bitişi başlangıcından sonra olmalı</translation>
    </message>
    <message>
        <source>must be after from</source>
        <translation>başlangıçtan (from) sonra olmalı</translation>
    </message>
    <message>
        <source>The period must be at most %1 days long</source>
        <translation>Dönem en fazla %1 gün olmalı</translation>
    </message>
    <message>
        <source>must be at most %1 days before to</source>
        <translation>bitişten (to) en fazla %1 gün önce olmalı</translation>
    </message>
    <message>
        <source>Suggestion</source>
        <translation>Öneri</translation>
    </message>
    <message>
        <source>The file is not a CSV text file</source>
        <translation>Dosya bir CSV metin dosyası değil</translation>
    </message>
    <message>
        <source>must be CSV text</source>
        <translation>CSV metni olmalı</translation>
    </message>
    <message>
        <source>This endpoint takes a CSV file: send it as the body with Content-Type text/csv, or as the file part of multipart/form-data</source>
        <translation>Bu uç nokta bir CSV dosyası alır: dosyayı Content-Type text/csv ile gövde olarak ya da multipart/form-data içinde file parçası olarak gönderin</translation>
    </message>
    <message>
        <source>This API key lacks the scope %1</source>
        <translation>Bu API anahtarında %1 kapsamı yok</translation>
    </message>
    <message>
        <source>must be off, suggest or on, got &quot;%1&quot;</source>
        <translation>off, suggest ya da on olmalı; girilen &quot;%1&quot;</translation>
    </message>
    <message>
        <source>The database %1 could not be copied: %2</source>
        <translation>%1 veritabanı kopyalanamadı: %2</translation>
    </message>
    <message>
        <source>There is no database to back up at %1</source>
        <translation>%1 konumunda yedeklenecek bir veritabanı yok</translation>
    </message>
    <message>
        <source>The data directory %1 already holds a database or uploads: restore into an empty data directory, or replace them with --force (they are kept aside)</source>
        <translation>%1 veri klasöründe zaten bir veritabanı veya yüklenmiş dosyalar var: boş bir veri klasörüne geri yükleyin ya da --force ile onları değiştirin (kenara alınıp saklanırlar)</translation>
    </message>
    <message>
        <source>the database in it fails SQLite&apos;s check (%1)</source>
        <translation>içindeki veritabanı SQLite denetiminden geçmiyor (%1)</translation>
    </message>
    <message>
        <source>%1 holds a database of a newer Liaison (schema %2, this program knows %3): update Liaison to restore it</source>
        <translation>%1 daha yeni bir Liaison&apos;ın veritabanını içeriyor (şema %2, bu program %3 şemasına kadar biliyor): geri yüklemek için Liaison&apos;ı güncelleyin</translation>
    </message>
    <message>
        <source>it ends early (the file was cut short)</source>
        <translation>erken bitiyor (dosya kesilmiş)</translation>
    </message>
    <message>
        <source>its compressed data is damaged (the file was changed after it was written)</source>
        <translation>sıkıştırılmış verisi bozuk (dosya yazıldıktan sonra değişmiş)</translation>
    </message>
    <message>
        <source>a file in it does not match the checksum the backup recorded</source>
        <translation>içindeki bir dosya, yedeğin kaydettiği sağlama toplamıyla uyuşmuyor</translation>
    </message>
    <message>
        <source>its list of contents is missing or does not match what it holds</source>
        <translation>içerik listesi eksik ya da içindekilerle uyuşmuyor</translation>
    </message>
    <message>
        <source>The disk is full: the backup could not be written to %1</source>
        <translation>Disk dolu: yedek %1 konumuna yazılamadı</translation>
    </message>
    <message>
        <source>The backup could not be written to %1: %2</source>
        <translation>Yedek %1 konumuna yazılamadı: %2</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 okunamıyor: %2</translation>
    </message>
    <message>
        <source>%1 is not a Liaison backup: nothing was restored</source>
        <translation>%1 bir Liaison yedeği değil: hiçbir şey geri yüklenmedi</translation>
    </message>
    <message>
        <source>The backup %1 is damaged: %2. Nothing was restored</source>
        <translation>%1 yedeği bozuk: %2. Hiçbir şey geri yüklenmedi</translation>
    </message>
    <message>
        <source>%1 was written by a newer Liaison (backup format %2): update Liaison to restore it</source>
        <translation>%1 daha yeni bir Liaison tarafından yazılmış (yedek biçimi %2): geri yüklemek için Liaison&apos;ı güncelleyin</translation>
    </message>
    <message>
        <source>its folder cannot be created</source>
        <translation>klasörü oluşturulamıyor</translation>
    </message>
    <message>
        <source>%1 could not be moved there</source>
        <translation>%1 oraya taşınamadı</translation>
    </message>
    <message>
        <source>Contact %1 was merged into %2</source>
        <translation>%1 kişisi %2 kişisiyle birleştirildi</translation>
    </message>
    <message>
        <source>must hold at most %1 contact ids</source>
        <translation>en fazla %1 kişi kimliği içermelidir</translation>
    </message>
    <message>
        <source>must not hold an empty id</source>
        <translation>boş bir kimlik içermemelidir</translation>
    </message>
    <message>
        <source>must not hold the contact kept: %1</source>
        <translation>kalacak kişiyi içermemelidir: %1</translation>
    </message>
    <message>
        <source>holds %1 more than once</source>
        <translation>%1 kimliğini birden fazla kez içeriyor</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Birleştirme</translation>
    </message>
    <message>
        <source>Merge %1 was undone already</source>
        <translation>%1 birleştirmesi zaten geri alındı</translation>
    </message>
    <message>
        <source>A merge can be undone within %1 days only</source>
        <translation>Bir birleştirme yalnızca %1 gün içinde geri alınabilir</translation>
    </message>
    <message>
        <source>Contact %1, which the merge kept, no longer exists</source>
        <translation>Birleştirmede kalan %1 kişisi artık yok</translation>
    </message>
    <message>
        <source>Contact %1 exists already</source>
        <translation>%1 kişisi zaten var</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>İçe aktarma</translation>
    </message>
    <message>
        <source>Unchanged: the same as contact %1</source>
        <translation>Değişmedi: %1 kişisiyle aynı</translation>
    </message>
    <message>
        <source>fills %1 from two columns</source>
        <translation>%1 alanını iki sütundan dolduruyor</translation>
    </message>
    <message>
        <source>fills no name or no e-mail or phone column</source>
        <translation>ad ya da e-posta veya telefon sütunu doldurmuyor</translation>
    </message>
    <message>
        <source>must be a JSON object of column → field</source>
        <translation>sütun → alan biçiminde bir JSON nesnesi olmalı</translation>
    </message>
    <message>
        <source>must map each column to a field name</source>
        <translation>her sütunu bir alan adına eşlemeli</translation>
    </message>
    <message>
        <source>names %1, a column the file does not have</source>
        <translation>%1 sütununu adlandırıyor, dosyada böyle bir sütun yok</translation>
    </message>
    <message>
        <source>names %1, which is not a field</source>
        <translation>%1 adını veriyor, bu bir alan değil</translation>
    </message>
    <message>
        <source>The mapping must fill a name (name, firstName or lastName) and an e-mail or phone</source>
        <translation>Eşleme bir ad (name, firstName ya da lastName) ve bir e-posta ya da telefon doldurmalı</translation>
    </message>
    <message>
        <source>No contact has the e-mail %1</source>
        <translation>%1 e-postalı bir kişi yok</translation>
    </message>
    <message>
        <source>names no contact</source>
        <translation>hiçbir kişiyi göstermiyor</translation>
    </message>
    <message>
        <source>A deal named %1 already exists (%2)</source>
        <translation>%1 adlı bir fırsat zaten var (%2)</translation>
    </message>
    <message>
        <source>Unchanged: the same as deal %1</source>
        <translation>Değişmedi: %1 fırsatıyla aynı</translation>
    </message>
    <message>
        <source>A task titled %1 already exists (%2)</source>
        <translation>%1 başlıklı bir görev zaten var (%2)</translation>
    </message>
    <message>
        <source>Unchanged: the same as task %1</source>
        <translation>Değişmedi: %1 göreviyle aynı</translation>
    </message>
</context>
<context>
    <name>NewApiKeyDialog</name>
    <message>
        <source>API key created</source>
        <translation>API anahtarı oluşturuldu</translation>
    </message>
    <message>
        <source>The key &quot;%1&quot; was created. Copy it now:</source>
        <translation>&quot;%1&quot; anahtarı oluşturuldu. Şimdi kopyalayın:</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopyala</translation>
    </message>
    <message>
        <source>&lt;b&gt;This key will not be shown again.&lt;/b&gt; Store it somewhere safe; if it is lost, revoke it and create a new one.</source>
        <translation>&lt;b&gt;Bu anahtar bir daha gösterilmeyecek.&lt;/b&gt; Güvenli bir yerde saklayın; kaybolursa geçersiz kılıp yenisini oluşturun.</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopyalandı</translation>
    </message>
</context>
<context>
    <name>NotificationCenter</name>
    <message numerus="yes">
        <source>%n new</source>
        <translation>
            <numerusform>%n yeni</numerusform>
        </translation>
    </message>
    <message>
        <source>No notifications</source>
        <translation>Bildirim yok</translation>
    </message>
    <message>
        <source>Notifications (%1)</source>
        <translation>Bildirimler (%1)</translation>
    </message>
    <message>
        <source>Mark all as read</source>
        <translation>Tümünü okundu işaretle</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Temizle</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Aç</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Bildirimler</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Kapat</translation>
    </message>
    <message>
        <source>Close (it stays in the notifications list)</source>
        <translation>Kapat (bildirim listesinde kalır)</translation>
    </message>
    <message numerus="yes">
        <source>%n more waiting</source>
        <translation>
            <numerusform>%n tane daha bekliyor</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PagerBar</name>
    <message>
        <source>Previous</source>
        <translation>Önceki</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Sonraki</translation>
    </message>
    <message>
        <source>%1–%2 of %3</source>
        <translation>%1–%2 / %3</translation>
    </message>
</context>
<context>
    <name>PasswordDialog</name>
    <message>
        <source>Set password</source>
        <translation>Parola belirle</translation>
    </message>
    <message>
        <source>A new password for %1. They are signed out everywhere and sign in again with it.</source>
        <translation>%1 için yeni parola. Her yerde oturumu kapanır ve bu parolayla yeniden giriş yapar.</translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>en az %n karakter</numerusform>
        </translation>
    </message>
    <message>
        <source>New password:</source>
        <translation>Yeni parola:</translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation>Tekrar girin:</translation>
    </message>
    <message>
        <source>Change password</source>
        <translation>Parolayı değiştir</translation>
    </message>
    <message>
        <source>A new password for your account (%1). Your other sessions end; this window stays signed in.</source>
        <translation>Hesabınız (%1) için yeni parola. Diğer oturumlarınız kapanır; bu pencere açık kalır.</translation>
    </message>
    <message>
        <source>Current password:</source>
        <translation>Şimdiki parola:</translation>
    </message>
    <message>
        <source>The current password is wrong.</source>
        <translation>Şimdiki parola yanlış.</translation>
    </message>
    <message>
        <source>Your password was changed.</source>
        <translation>Parolanız değiştirildi.</translation>
    </message>
</context>
<context>
    <name>PipelineBoard</name>
    <message>
        <source>Pipeline:</source>
        <translation>Satış hattı:</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;%3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>Value per stage</source>
        <translation>Aşamaya göre tutar</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Fırsatlar</translation>
    </message>
    <message>
        <source>New deal…</source>
        <translation>Yeni fırsat…</translation>
    </message>
    <message>
        <source>Edit pipelines…</source>
        <translation>Satış hatlarını düzenle…</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>Grafik</translation>
    </message>
    <message>
        <source>Show or hide the value per stage chart</source>
        <translation>Aşamaya göre tutar grafiğini göster ya da gizle</translation>
    </message>
    <message>
        <source>Value per stage (%1)</source>
        <translation>Aşamaya göre tutar (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 %3 in %n deal(s)</source>
        <translation>
            <numerusform>%1: %n fırsatta %2 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 M</source>
        <comment>millions</comment>
        <translation>%1 Mn</translation>
    </message>
    <message>
        <source>%1 K</source>
        <comment>thousands</comment>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>The currency of the summary and the chart (amounts in different currencies are never added)</source>
        <translation>Özetin ve grafiğin para birimi (farklı para birimlerindeki tutarlar asla toplanmaz)</translation>
    </message>
    <message>
        <source>%1 %4 · weighted %2 %4 · average %3 %4</source>
        <translation>%1 %4 · ağırlıklı %2 %4 · ortalama %3 %4</translation>
    </message>
    <message numerus="yes">
        <source>Open: %n deal(s); in %1 (%2): %3</source>
        <translation>
            <numerusform>Açık: %n fırsat; %1 cinsinden (%2): %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Open: %n deal(s) · %1</source>
        <translation>
            <numerusform>Açık: %n fırsat · %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Search deals…</source>
        <translation>Fırsatlarda ara…</translation>
    </message>
    <message>
        <source>Search deals</source>
        <translation>Fırsatlarda ara</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>Benimkiler</translation>
    </message>
    <message>
        <source>Only the deals assigned to you</source>
        <translation>Yalnızca size atanmış fırsatlar</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>List</source>
        <translation>Liste</translation>
    </message>
    <message>
        <source>Show the deals as a list you can sort instead of the board</source>
        <translation>Fırsatları pano yerine sıralanabilir bir liste olarak göster</translation>
    </message>
    <message>
        <source>The %1 most recent of %2 deals; search to find the others.</source>
        <translation>%2 fırsatın en yeni %1 tanesi; diğerlerini bulmak için arayın.</translation>
    </message>
    <message>
        <source>No deals in this pipeline yet. A deal follows a sale from the first talk to won or lost, with its amount and the next step.</source>
        <translation>Bu satış hattında henüz fırsat yok. Bir fırsat, bir satışı ilk görüşmeden kazanılana ya da kaybedilene kadar tutarı ve sonraki adımıyla izler.</translation>
    </message>
    <message>
        <source>No deal in this pipeline matches “%1”.</source>
        <translation>Bu satış hattında “%1” ile eşleşen fırsat yok.</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Aramayı temizle</translation>
    </message>
    <message>
        <source>None of this pipeline&apos;s deals is yours.</source>
        <translation>Bu satış hattındaki fırsatların hiçbiri size ait değil.</translation>
    </message>
    <message>
        <source>Show everyone&apos;s deals</source>
        <translation>Herkesin fırsatlarını göster</translation>
    </message>
    <message>
        <source>No open deals in this pipeline.</source>
        <translation>Bu satış hattında açık fırsat yok.</translation>
    </message>
    <message>
        <source>Show all deals</source>
        <translation>Tüm fırsatları göster</translation>
    </message>
    <message>
        <source>%1 since %2</source>
        <translation>%1, %2 tarihinden beri</translation>
    </message>
    <message>
        <source>Only the stage %1</source>
        <translation>Yalnızca %1 aşaması</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Dışa aktar…</translation>
    </message>
    <message>
        <source>Save the deals of this pipeline the search shows as a CSV file</source>
        <translation>Bu satış hattında aramanın gösterdiği fırsatları CSV dosyası olarak kaydet</translation>
    </message>
    <message>
        <source>Export deals to CSV</source>
        <translation>Fırsatları CSV olarak dışa aktar</translation>
    </message>
    <message>
        <source>deals.csv</source>
        <translation>firsatlar.csv</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 kaydedilmedi: %2</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>İçe aktar…</translation>
    </message>
    <message>
        <source>Import deals into this pipeline from a CSV file</source>
        <translation>Bu satış hattına bir CSV dosyasından fırsat aktar</translation>
    </message>
    <message>
        <source>Import deals into %1</source>
        <translation>Fırsatları %1 hattına aktar</translation>
    </message>
    <message>
        <source>A deal with the same name and contact exists in this pipeline:</source>
        <translation>Bu hatta aynı ad ve kişiyle bir fırsat varsa:</translation>
    </message>
    <message>
        <source>Contact&apos;s e-mail</source>
        <translation>Kişinin e-postası</translation>
    </message>
</context>
<context>
    <name>PipelineEditorDialog</name>
    <message>
        <source>Edit pipelines</source>
        <translation>Satış hatlarını düzenle</translation>
    </message>
    <message>
        <source>New pipeline name</source>
        <translation>Yeni satış hattının adı</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ekle</translation>
    </message>
    <message>
        <source>Delete pipeline…</source>
        <translation>Satış hattını sil…</translation>
    </message>
    <message>
        <source>Default pipeline (new deals go here)</source>
        <translation>Varsayılan satış hattı (yeni fırsatlar buraya eklenir)</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Aşama</translation>
    </message>
    <message>
        <source>Probability %</source>
        <translation>Olasılık (%)</translation>
    </message>
    <message>
        <source>Add stage</source>
        <translation>Aşama ekle</translation>
    </message>
    <message>
        <source>Remove stage</source>
        <translation>Aşamayı kaldır</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Yukarı taşı</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Aşağı taşı</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Ad:</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (varsayılan)</translation>
    </message>
    <message>
        <source>A closing stage: it stays last and cannot be removed.</source>
        <translation>Kapanış aşaması: her zaman en sonda kalır ve kaldırılamaz.</translation>
    </message>
    <message>
        <source>New stage</source>
        <translation>Yeni aşama</translation>
    </message>
    <message>
        <source>Write the new pipeline&apos;s name first.</source>
        <translation>Önce yeni satış hattının adını yazın.</translation>
    </message>
    <message>
        <source>Lead</source>
        <translation>Potansiyel müşteri</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>Teklif</translation>
    </message>
    <message>
        <source>Negotiation</source>
        <translation>Müzakere</translation>
    </message>
    <message>
        <source>Delete pipeline</source>
        <translation>Satış hattını sil</translation>
    </message>
    <message>
        <source>Delete the pipeline “%1”?</source>
        <translation>“%1” satış hattı silinsin mi?</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Rotten after (days)</source>
        <translation>Bayatlama (gün)</translation>
    </message>
    <message>
        <source>A deal that stays this many days in the stage is flagged on its card; 0: never.</source>
        <translation>Aşamada bu kadar gün kalan fırsat kartında işaretlenir; 0: hiçbir zaman.</translation>
    </message>
</context>
<context>
    <name>RecordPicker</name>
    <message>
        <source>Type a name, e-mail, phone or company</source>
        <translation>Ad, e-posta, telefon veya şirket yazın</translation>
    </message>
    <message>
        <source>Type a deal&apos;s or its contact&apos;s name</source>
        <translation>Fırsatın veya kişisinin adını yazın</translation>
    </message>
</context>
<context>
    <name>RuleGroupWidget</name>
    <message>
        <source>All of these (AND)</source>
        <translation>Bunların tümü (VE)</translation>
    </message>
    <message>
        <source>Any of these (OR)</source>
        <translation>Bunlardan herhangi biri (VEYA)</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>Kural ekle</translation>
    </message>
    <message>
        <source>Add group</source>
        <translation>Grup ekle</translation>
    </message>
    <message>
        <source>A group of rules with its own AND/OR (up to %1 levels)</source>
        <translation>Kendi VE/VEYA bağlacı olan bir kural grubu (en fazla %1 düzey)</translation>
    </message>
    <message>
        <source>Remove this group</source>
        <translation>Bu grubu kaldır</translation>
    </message>
</context>
<context>
    <name>RuleRowWidget</name>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>Etiket</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Kaynak</translation>
    </message>
    <message>
        <source>Lead score</source>
        <translation>Potansiyel müşteri puanı</translation>
    </message>
    <message>
        <source>Last message</source>
        <translation>Son mesaj</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Oluşturulma</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>Mesajlar</translation>
    </message>
    <message>
        <source>Sentiment</source>
        <translation>Duygu durumu</translation>
    </message>
    <message>
        <source>Custom field…</source>
        <translation>Özel alan…</translation>
    </message>
    <message>
        <source>has tag</source>
        <translation>etiketine sahip</translation>
    </message>
    <message>
        <source>is</source>
        <translation>eşittir</translation>
    </message>
    <message>
        <source>does not have tag</source>
        <translation>etiketine sahip değil</translation>
    </message>
    <message>
        <source>is not</source>
        <translation>eşit değildir</translation>
    </message>
    <message>
        <source>has tag (contains)</source>
        <translation>etiket içerir</translation>
    </message>
    <message>
        <source>contains</source>
        <translation>içerir</translation>
    </message>
    <message>
        <source>lacks tag (not contains)</source>
        <translation>etiket içermez</translation>
    </message>
    <message>
        <source>does not contain</source>
        <translation>içermez</translation>
    </message>
    <message>
        <source>has a tag starting with</source>
        <translation>şununla başlayan bir etikete sahip</translation>
    </message>
    <message>
        <source>starts with</source>
        <translation>şununla başlar</translation>
    </message>
    <message>
        <source>after / within the last</source>
        <translation>sonra / son şu süre içinde</translation>
    </message>
    <message>
        <source>greater than</source>
        <translation>büyüktür</translation>
    </message>
    <message>
        <source>before / older than</source>
        <translation>önce / şu süreden eski</translation>
    </message>
    <message>
        <source>less than</source>
        <translation>küçüktür</translation>
    </message>
    <message>
        <source>between</source>
        <translation>arasında</translation>
    </message>
    <message>
        <source>is empty</source>
        <translation>boş</translation>
    </message>
    <message>
        <source>is not empty</source>
        <translation>boş değil</translation>
    </message>
    <message>
        <source>key</source>
        <translation>anahtar</translation>
    </message>
    <message>
        <source>positive</source>
        <translation>olumlu</translation>
    </message>
    <message>
        <source>negative</source>
        <translation>olumsuz</translation>
    </message>
    <message>
        <source>neutral</source>
        <translation>nötr</translation>
    </message>
    <message>
        <source>and</source>
        <translation>ve</translation>
    </message>
    <message>
        <source>Remove this rule</source>
        <translation>Bu kuralı kaldır</translation>
    </message>
    <message>
        <source>30d or 2025-01-31</source>
        <translation>30d veya 2025-01-31</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Şirket</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>Unvan</translation>
    </message>
    <message>
        <source>City</source>
        <translation>Şehir</translation>
    </message>
    <message>
        <source>Country</source>
        <translation>Ülke</translation>
    </message>
</context>
<context>
    <name>SecretDialog</name>
    <message>
        <source>Copy this secret now: it is not shown again. Receivers use it to check the X-Service-Signature header.</source>
        <translation>Bu gizli anahtarı şimdi kopyalayın: bir daha gösterilmeyecek. Alıcılar, X-Service-Signature başlığını doğrulamak için bu anahtarı kullanır.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopyala</translation>
    </message>
</context>
<context>
    <name>SegmentDialog</name>
    <message>
        <source>New segment</source>
        <translation>Yeni segment</translation>
    </message>
    <message>
        <source>Edit segment %1</source>
        <translation>Segmenti düzenle: %1</translation>
    </message>
    <message>
        <source>Dynamic: members follow the rules (otherwise a fixed list, filled once)</source>
        <translation>Dinamik: üyeler kurallara göre güncellenir (aksi halde bir kez doldurulan sabit liste)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Açıklama</translation>
    </message>
    <message>
        <source>Add a rule to see how many contacts match.</source>
        <translation>Kaç kişinin eşleştiğini görmek için bir kural ekleyin.</translation>
    </message>
    <message>
        <source>1 contact matches now</source>
        <translation>Şu anda 1 kişi eşleşiyor</translation>
    </message>
    <message>
        <source>%1 contacts match now</source>
        <translation>Şu anda %1 kişi eşleşiyor</translation>
    </message>
    <message>
        <source>Incomplete rule: %1</source>
        <translation>Eksik kural: %1</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>Sayılıyor…</translation>
    </message>
    <message>
        <source>Fill in each rule to see how many contacts match.</source>
        <translation>Kaç kişinin uyduğunu görmek için her kuralı doldurun.</translation>
    </message>
</context>
<context>
    <name>SegmentsPanel</name>
    <message>
        <source>Segments</source>
        <translation>Segmentler</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Yeni…</translation>
    </message>
    <message>
        <source>Create a segment from rules</source>
        <translation>Kurallardan segment oluştur</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Düzenle…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>Anlık görüntü</translation>
    </message>
    <message>
        <source>Save the current members as a new static segment</source>
        <translation>Mevcut üyeleri yeni bir statik segment olarak kaydet</translation>
    </message>
    <message>
        <source>Add to segment…</source>
        <translation>Segmente ekle…</translation>
    </message>
    <message>
        <source>Add the selected contacts to a static segment</source>
        <translation>Seçili kişileri statik bir segmente ekle</translation>
    </message>
    <message>
        <source>All contacts</source>
        <translation>Tüm kişiler</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (%2, static)</source>
        <translation>%1 (%2, statik)</translation>
    </message>
    <message>
        <source>Edit segment</source>
        <translation>Segmenti düzenle</translation>
    </message>
    <message>
        <source>Delete segment</source>
        <translation>Segmenti sil</translation>
    </message>
    <message>
        <source>Delete the segment %1? Its contacts are kept.</source>
        <translation>%1 segmenti silinsin mi? Segmentteki kişiler korunur.</translation>
    </message>
    <message>
        <source>Add to segment</source>
        <translation>Segmente ekle</translation>
    </message>
    <message>
        <source>Select one or more contacts in the table first.</source>
        <translation>Önce tablodan bir veya daha fazla kişi seçin.</translation>
    </message>
    <message>
        <source>Contacts are added to static segments only, and there is none yet. Create one with New… and clear &quot;Dynamic&quot;.</source>
        <translation>Kişiler yalnızca statik segmentlere eklenebilir ve henüz statik segment yok. Yeni… ile bir segment oluşturun ve &quot;Dinamik&quot; seçeneğinin işaretini kaldırın.</translation>
    </message>
    <message>
        <source>Add 1 contact to:</source>
        <translation>1 kişiyi şu segmente ekle:</translation>
    </message>
    <message>
        <source>Add %1 contacts to:</source>
        <translation>%1 kişiyi şu segmente ekle:</translation>
    </message>
    <message>
        <source>%1 (static)</source>
        <translation>%1 (statik)</translation>
    </message>
    <message>
        <source>%1 (snapshot %2)</source>
        <translation>%1 (anlık görüntü %2)</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Ayarlar</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API anahtarları</translation>
    </message>
</context>
<context>
    <name>SettingsForm</name>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>Saving is not available here.</source>
        <translation>Kaydetme burada kullanılamıyor.</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Kaydedilmedi: %1</translation>
    </message>
    <message>
        <source>Saved. The changes take effect at the next start.</source>
        <translation>Kaydedildi. Değişiklikler bir sonraki başlatmada geçerli olur.</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Klavye kısayolları</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Nerede</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tuşlar</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Eylem</translation>
    </message>
</context>
<context>
    <name>SignInDialog</name>
    <message>
        <source>Sign in to Liaison</source>
        <translation>Liaison&apos;a giriş yapın</translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation>ad@sirket.com</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-posta:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Parola:</translation>
    </message>
    <message>
        <source>Sign in</source>
        <translation>Giriş yap</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Çık</translation>
    </message>
    <message>
        <source>Could not sign in: %1</source>
        <translation>Giriş yapılamadı: %1</translation>
    </message>
    <message>
        <source>E-mail or password is wrong.</source>
        <translation>E-posta ya da parola yanlış.</translation>
    </message>
</context>
<context>
    <name>SmsPage</name>
    <message>
        <source>The SMS provider campaigns send text messages through (the Twilio Messages API or a compatible one). The auth token is kept in the system keychain; changes take effect at the next start.</source>
        <translation>Kampanyaların kısa mesaj gönderdiği SMS sağlayıcısı (Twilio Messages API ya da uyumlu bir sağlayıcı). Auth token sistem anahtar zincirinde saklanır; değişiklikler bir sonraki başlatmada geçerli olur.</translation>
    </message>
    <message>
        <source>SMS provider</source>
        <translation>SMS sağlayıcısı</translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation>API temel URL&apos;si</translation>
    </message>
    <message>
        <source>Account SID</source>
        <translation>Hesap SID&apos;si</translation>
    </message>
    <message>
        <source>AC and 32 hex digits</source>
        <translation>AC ve 32 onaltılık rakam</translation>
    </message>
    <message>
        <source>Auth token</source>
        <translation>Auth token</translation>
    </message>
    <message>
        <source>Remove the stored token</source>
        <translation>Kayıtlı token&apos;ı kaldır</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Gönderen</translation>
    </message>
    <message>
        <source>+908501234567 or a sender name such as ORNEK</source>
        <translation>+908501234567 ya da ORNEK gibi bir gönderen adı</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Zaman aşımı</translation>
    </message>
    <message>
        <source> s</source>
        <translation> sn</translation>
    </message>
    <message>
        <source>Campaign pace</source>
        <translation>Kampanya hızı</translation>
    </message>
    <message>
        <source>Keep within what the provider allows for the account and the sender; messages over its rate are refused.</source>
        <translation>Sağlayıcının bu hesap ve gönderen için izin verdiği sınırlar içinde kalın; bu hızı aşan mesajlar reddedilir.</translation>
    </message>
    <message>
        <source>Messages per second</source>
        <translation>Saniyede mesaj</translation>
    </message>
    <message>
        <source> a second</source>
        <translation> / sn</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>Sınırsız</translation>
    </message>
    <message>
        <source>Messages at once</source>
        <translation>Aynı anda gönderilen</translation>
    </message>
    <message>
        <source>At most per hour</source>
        <translation>Saatte en çok</translation>
    </message>
    <message>
        <source> an hour</source>
        <translation> / saat</translation>
    </message>
    <message>
        <source>No cap</source>
        <translation>Sınır yok</translation>
    </message>
    <message>
        <source>Send a test SMS</source>
        <translation>Deneme SMS&apos;i gönder</translation>
    </message>
    <message>
        <source>Sends one message with the values above (saved or not) to the number you type.</source>
        <translation>Yukarıdaki değerlerle (kaydedilmiş olsun ya da olmasın) yazdığınız numaraya tek bir mesaj gönderir.</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Alıcı</translation>
    </message>
    <message>
        <source>The token typed above is stored when you save.</source>
        <translation>Yukarıya yazılan token kaydettiğinizde saklanır.</translation>
    </message>
    <message>
        <source>No token is stored.</source>
        <translation>Kayıtlı token yok.</translation>
    </message>
    <message>
        <source>A token is stored; type another to replace it.</source>
        <translation>Bir token kayıtlı; değiştirmek için yenisini yazın.</translation>
    </message>
    <message>
        <source>correct the fields marked above.</source>
        <translation>yukarıda işaretlenen alanları düzeltin.</translation>
    </message>
    <message>
        <source>Not sent: correct the fields marked above.</source>
        <translation>Gönderilmedi: yukarıda işaretlenen alanları düzeltin.</translation>
    </message>
    <message>
        <source>Not sent: fill in the account SID, the auth token and the sender first.</source>
        <translation>Gönderilmedi: önce hesap SID&apos;sini, auth token&apos;ı ve göndereni girin.</translation>
    </message>
    <message>
        <source>Type the number in international form, such as +905321234567.</source>
        <translation>Numarayı uluslararası biçimde yazın, örneğin +905321234567.</translation>
    </message>
    <message>
        <source>Testing is not available here.</source>
        <translation>Deneme burada kullanılamıyor.</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Gönderiliyor…</translation>
    </message>
    <message>
        <source>Liaison test message: SMS campaigns can be sent from this account.</source>
        <translation>Liaison deneme mesajı: bu hesaptan SMS kampanyaları gönderilebilir.</translation>
    </message>
    <message>
        <source>Not sent: no answer from the provider (%1).</source>
        <translation>Gönderilmedi: sağlayıcıdan yanıt gelmedi (%1).</translation>
    </message>
    <message>
        <source>no connection</source>
        <translation>bağlantı yok</translation>
    </message>
    <message>
        <source>Sent to %1. The provider accepted it as %2 (status: %3).</source>
        <translation>%1 numarasına gönderildi. Sağlayıcı mesajı %2 kimliğiyle kabul etti (durum: %3).</translation>
    </message>
    <message>
        <source>a message without a sid</source>
        <translation>kimliksiz bir mesaj</translation>
    </message>
    <message>
        <source>Not sent: the provider answered %1 with error %2: %3</source>
        <translation>Gönderilmedi: sağlayıcı %1 yanıtı verdi, hata %2: %3</translation>
    </message>
    <message>
        <source>Not sent: the provider answered %1: %2</source>
        <translation>Gönderilmedi: sağlayıcı %1 yanıtı verdi: %2</translation>
    </message>
    <message>
        <source>SMS</source>
        <translation>SMS</translation>
    </message>
    <message>
        <source>&amp;SMS…</source>
        <translation>&amp;SMS…</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <source>Liaison cannot start</source>
        <translation>Liaison başlatılamıyor</translation>
    </message>
    <message>
        <source>Liaison could not open its database.</source>
        <translation>Liaison veritabanını açamadı.</translation>
    </message>
    <message>
        <source>%1

Check database/url in the settings file (liaison.ini in the data directory), that the server runs and accepts this computer, and the password in the secret store (secrets/database.password).</source>
        <translation>%1

Ayar dosyasındaki database/url değerini (veri klasöründeki liaison.ini), sunucunun çalıştığını ve bu bilgisayarı kabul ettiğini, gizli depodaki parolayı (secrets/database.password) denetleyin.</translation>
    </message>
    <message>
        <source>You signed out.</source>
        <translation>Oturumunuzu kapattınız.</translation>
    </message>
    <message>
        <source>The account %1 was deactivated; sign in with another.</source>
        <translation>%1 hesabı devre dışı bırakıldı; başka bir hesapla giriş yapın.</translation>
    </message>
    <message>
        <source>Your session was ended (a new password, or a sign-out elsewhere); sign in again.</source>
        <translation>Oturumunuz sonlandırıldı (yeni bir parola ya da başka bir yerden çıkış); yeniden giriş yapın.</translation>
    </message>
    <message>
        <source>Liaison is already open</source>
        <translation>Liaison zaten açık</translation>
    </message>
    <message>
        <source>Liaison is already open with this data directory (%1). Use the window that is open.</source>
        <translation>Liaison bu veri klasörüyle (%1) zaten açık. Açık olan pencereyi kullanın.</translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation>Veritabanı: %1</translation>
    </message>
    <message>
        <source>Data folder: %1</source>
        <translation>Veri klasörü: %1</translation>
    </message>
    <message>
        <source>The database file is damaged.</source>
        <translation>Veritabanı dosyası hasarlı.</translation>
    </message>
    <message>
        <source>Liaison does not open a damaged database file:
%1

To restore it, close Liaison and run &quot;liaison restore --force FILE&quot; with a backup (the daily ones are in the data folder&apos;s &quot;backups&quot; folder; the damaged file is kept aside), or put a backup copy of the file in its place (and delete the files ending in -wal and -shm beside it), or save what can still be read with the sqlite3 program&apos;s .recover command. &quot;liaison db check&quot; reports what is damaged.

Details: %2</source>
        <translation>Liaison hasarlı bir veritabanı dosyasını açmaz:
%1

Geri yüklemek için Liaison&apos;ı kapatın ve bir yedekle &quot;liaison restore --force DOSYA&quot; komutunu çalıştırın (günlük yedekler veri klasöründeki &quot;backups&quot; klasöründedir; hasarlı dosya kenara alınıp saklanır) ya da dosyanın yerine bir yedek kopyasını koyun (yanındaki -wal ve -shm ile biten dosyaları silin) ya da hâlâ okunabilenleri sqlite3 programının .recover komutuyla kurtarın. Neyin hasarlı olduğunu &quot;liaison db check&quot; bildirir.

Ayrıntılar: %2</translation>
    </message>
    <message>
        <source>The database file is empty.</source>
        <translation>Veritabanı dosyası boş.</translation>
    </message>
    <message>
        <source>The database file %1 holds 0 bytes. Liaison does not take it for a new database: your contacts, users and keys would be gone without a word.

Restore the file from a backup copy. If this data folder is new and its first start failed, delete the empty file and start Liaison again.</source>
        <translation>%1 veritabanı dosyası 0 bayt. Liaison bunu yeni bir veritabanı saymaz: kişileriniz, kullanıcılarınız ve anahtarlarınız sessizce kaybolurdu.

Dosyayı bir yedek kopyadan geri yükleyin. Bu veri klasörü yeniyse ve ilk başlatma başarısız olduysa boş dosyayı silip Liaison&apos;ı yeniden başlatın.</translation>
    </message>
    <message>
        <source>The data folder is read-only.</source>
        <translation>Veri klasörü salt okunur.</translation>
    </message>
    <message>
        <source>%1 is read-only, and Liaison needs to write its database there.

Make it writable for your user, or start Liaison with another data folder (--data-dir).

Details: %2</source>
        <translation>%1 salt okunur; Liaison veritabanını oraya yazmalıdır.

Kullanıcınız için yazılabilir yapın ya da Liaison&apos;ı başka bir veri klasörüyle başlatın (--data-dir).

Ayrıntılar: %2</translation>
    </message>
</context>
<context>
    <name>TaskDialog</name>
    <message>
        <source>New task</source>
        <translation>Yeni görev</translation>
    </message>
    <message>
        <source>Edit task</source>
        <translation>Görevi düzenle</translation>
    </message>
    <message>
        <source>What needs doing?</source>
        <translation>Ne yapılması gerekiyor?</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>Başlık:</translation>
    </message>
    <message>
        <source>Description:</source>
        <translation>Açıklama:</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Görev</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Arama</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Toplantı</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>Takip</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Düşük</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Orta</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Yüksek</translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation>Acil</translation>
    </message>
    <message>
        <source>To do</source>
        <translation>Yapılacak</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>Devam ediyor</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Tamamlandı</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>İptal edildi</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>Tür:</translation>
    </message>
    <message>
        <source>Priority:</source>
        <translation>Öncelik:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Durum:</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>Son tarih</translation>
    </message>
    <message>
        <source>at</source>
        <translation>saat</translation>
    </message>
    <message>
        <source>Due date:</source>
        <translation>Son tarih:</translation>
    </message>
    <message>
        <source>Contact:</source>
        <translation>Kişi:</translation>
    </message>
    <message>
        <source>Remind me</source>
        <translation>Bana hatırlat</translation>
    </message>
    <message>
        <source> minutes before</source>
        <translation> dakika önce</translation>
    </message>
    <message>
        <source>Reminder:</source>
        <translation>Hatırlatıcı:</translation>
    </message>
    <message>
        <source>Does not repeat</source>
        <translation>Tekrarlanmaz</translation>
    </message>
    <message>
        <source>Daily</source>
        <translation>Günlük</translation>
    </message>
    <message>
        <source>Weekly</source>
        <translation>Haftalık</translation>
    </message>
    <message>
        <source>Monthly</source>
        <translation>Aylık</translation>
    </message>
    <message>
        <source>Yearly</source>
        <translation>Yıllık</translation>
    </message>
    <message>
        <source>every </source>
        <translation>her </translation>
    </message>
    <message>
        <source>Mon</source>
        <translation>Pzt</translation>
    </message>
    <message>
        <source>Tue</source>
        <translation>Sal</translation>
    </message>
    <message>
        <source>Wed</source>
        <translation>Çar</translation>
    </message>
    <message>
        <source>Thu</source>
        <translation>Per</translation>
    </message>
    <message>
        <source>Fri</source>
        <translation>Cum</translation>
    </message>
    <message>
        <source>Sat</source>
        <translation>Cmt</translation>
    </message>
    <message>
        <source>Sun</source>
        <translation>Paz</translation>
    </message>
    <message>
        <source>until</source>
        <translation>bitiş</translation>
    </message>
    <message>
        <source>Repeat:</source>
        <translation>Tekrar:</translation>
    </message>
    <message>
        <source>Deal:</source>
        <translation>Fırsat:</translation>
    </message>
    <message>
        <source>(unassigned)</source>
        <translation>(atanmamış)</translation>
    </message>
    <message>
        <source>Assigned to:</source>
        <translation>Atanan kişi:</translation>
    </message>
    <message>
        <source>Title</source>
        <comment>the title field, as a screen reader names it</comment>
        <translation>Başlık</translation>
    </message>
</context>
<context>
    <name>TaskReminderNotifier</name>
    <message>
        <source>%1 — due %2</source>
        <translation>%1 — son tarih: %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <source>To do</source>
        <translation>Yapılacak</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>Devam ediyor</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Tamamlandı</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>İptal edildi</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Düşük</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Yüksek</translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation>Acil</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Orta</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Arama</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Toplantı</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>Takip</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Görev</translation>
    </message>
    <message>
        <source>Repeats %1</source>
        <translation>Yineleme: %1</translation>
    </message>
    <message>
        <source>Due</source>
        <translation>Son tarih</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Öncelik</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tür</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Contact</source>
        <translation>Kişi</translation>
    </message>
    <message>
        <source>Deal</source>
        <translation>Fırsat</translation>
    </message>
    <message>
        <source>Assignee</source>
        <translation>Atanan</translation>
    </message>
</context>
<context>
    <name>TasksView</name>
    <message>
        <source>Tasks</source>
        <translation>Görevler</translation>
    </message>
    <message>
        <source>Add a task and press Enter…</source>
        <translation>Bir görev yazıp Enter&apos;a basın…</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Bugün</translation>
    </message>
    <message>
        <source>Tomorrow</source>
        <translation>Yarın</translation>
    </message>
    <message>
        <source>No date</source>
        <translation>Tarih yok</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ekle</translation>
    </message>
    <message>
        <source>New…</source>
        <translation>Yeni…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Düzenle…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Overdue</source>
        <translation>Gecikmiş</translation>
    </message>
    <message>
        <source>Upcoming</source>
        <translation>Yaklaşan</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Tümü</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Added “%1”.</source>
        <translation>“%1” eklendi.</translation>
    </message>
    <message>
        <source>Task done.</source>
        <translation>Görev tamamlandı.</translation>
    </message>
    <message>
        <source>Task done. Next occurrence: %1.</source>
        <translation>Görev tamamlandı. Sonraki tekrar: %1.</translation>
    </message>
    <message>
        <source>Delete task</source>
        <translation>Görevi sil</translation>
    </message>
    <message>
        <source>Delete the task “%1” and its notes?</source>
        <translation>“%1” görevi ve notları silinsin mi?</translation>
    </message>
    <message>
        <source>Task deleted.</source>
        <translation>Görev silindi.</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>Yeniden aç</translation>
    </message>
    <message>
        <source>Move a done or cancelled task back to To do</source>
        <translation>Tamamlanmış veya iptal edilmiş bir görevi Yapılacak durumuna geri al</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Tüm durumlar</translation>
    </message>
    <message>
        <source>To do</source>
        <translation>Yapılacak</translation>
    </message>
    <message>
        <source>In progress</source>
        <translation>Devam ediyor</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Tamamlandı</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>İptal edildi</translation>
    </message>
    <message>
        <source>Any priority</source>
        <translation>Tüm öncelikler</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Düşük</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>Orta</translation>
    </message>
    <message>
        <source>High</source>
        <translation>Yüksek</translation>
    </message>
    <message>
        <source>Urgent</source>
        <translation>Acil</translation>
    </message>
    <message>
        <source>Any type</source>
        <translation>Tüm türler</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Görev</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>Arama</translation>
    </message>
    <message>
        <source>Meeting</source>
        <translation>Toplantı</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>Takip</translation>
    </message>
    <message>
        <source>Anyone</source>
        <translation>Herkes</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Göster:</translation>
    </message>
    <message>
        <source>Reopened “%1”.</source>
        <translation>“%1” yeniden açıldı.</translation>
    </message>
    <message>
        <source>Task reminder</source>
        <translation>Görev hatırlatıcısı</translation>
    </message>
    <message>
        <source>Nothing due today. Type a task in the line above and press Enter.</source>
        <translation>Bugün için görev yok. Yukarıdaki satıra bir görev yazıp Enter&apos;a basın.</translation>
    </message>
    <message>
        <source>Nothing coming up. Tasks with a later due date show here.</source>
        <translation>Yaklaşan görev yok. Son tarihi daha ileride olan görevler burada görünür.</translation>
    </message>
    <message>
        <source>“%1” done.</source>
        <translation>“%1” tamamlandı.</translation>
    </message>
    <message>
        <source>Undone.</source>
        <translation>Geri alındı.</translation>
    </message>
    <message>
        <source>Task “%1” deleted.</source>
        <translation>“%1” görevi silindi.</translation>
    </message>
    <message>
        <source>Assigned to me</source>
        <translation>Bana atananlar</translation>
    </message>
    <message>
        <source>The filters above (%1) may hide others.</source>
        <translation>Yukarıdaki filtreler (%1) diğerlerini gizliyor olabilir.</translation>
    </message>
    <message>
        <source>Quick add a task</source>
        <translation>Hızlı görev ekle</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Aç</translation>
    </message>
    <message>
        <source>10 min</source>
        <translation>10 dk</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 saat</translation>
    </message>
    <message>
        <source>Tomorrow 9:00</source>
        <translation>Yarın 09:00</translation>
    </message>
    <message>
        <source>Reminded again at %1.</source>
        <translation>%1 tarihinde yeniden hatırlatılacak.</translation>
    </message>
    <message>
        <source>Search tasks…</source>
        <translation>Görevlerde ara…</translation>
    </message>
    <message>
        <source>Search tasks</source>
        <translation>Görevlerde ara</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>Benimkiler</translation>
    </message>
    <message>
        <source>Only the tasks assigned to you</source>
        <translation>Yalnızca size atanmış görevler</translation>
    </message>
    <message>
        <source>No task here matches “%1”: change or clear the search.</source>
        <translation>Burada “%1” ile eşleşen görev yok: aramayı değiştirin ya da temizleyin.</translation>
    </message>
    <message>
        <source>No overdue tasks: everything due is done.</source>
        <translation>Gecikmiş görev yok: zamanı gelen her şey yapıldı.</translation>
    </message>
    <message>
        <source>No tasks yet. Type one in the line above and press Enter, or add one with its due date, reminder and contact.</source>
        <translation>Henüz görev yok. Yukarıdaki satıra bir görev yazıp Enter&apos;a basın ya da son tarihi, hatırlatıcısı ve kişisiyle birlikte ekleyin.</translation>
    </message>
    <message>
        <source>Clear the search</source>
        <translation>Aramayı temizle</translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation>Filtreleri temizle</translation>
    </message>
    <message>
        <source>Show all tasks</source>
        <translation>Tüm görevleri göster</translation>
    </message>
    <message>
        <source>New task…</source>
        <translation>Yeni görev…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Dışa aktar…</translation>
    </message>
    <message>
        <source>Save the tasks this tab and the filters show as a CSV file</source>
        <translation>Bu sekmenin ve filtrelerin gösterdiği görevleri CSV dosyası olarak kaydet</translation>
    </message>
    <message>
        <source>Export tasks to CSV</source>
        <translation>Görevleri CSV olarak dışa aktar</translation>
    </message>
    <message>
        <source>tasks.csv</source>
        <translation>gorevler.csv</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 kaydedilmedi: %2</translation>
    </message>
    <message>
        <source>%1 tasks saved to %2.</source>
        <translation>%1 görev %2 konumuna kaydedildi.</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>İçe aktar…</translation>
    </message>
    <message>
        <source>Import tasks from a CSV file</source>
        <translation>Bir CSV dosyasından görev aktar</translation>
    </message>
    <message>
        <source>Import tasks</source>
        <translation>Görevleri içe aktar</translation>
    </message>
    <message>
        <source>A task with the same title, due date and contact exists:</source>
        <translation>Aynı başlık, son tarih ve kişiyle bir görev varsa:</translation>
    </message>
    <message>
        <source>Contact&apos;s e-mail</source>
        <translation>Kişinin e-postası</translation>
    </message>
</context>
<context>
    <name>TemplateDialog</name>
    <message>
        <source>Add template</source>
        <translation>Şablon ekle</translation>
    </message>
    <message>
        <source>Edit template</source>
        <translation>Şablonu düzenle</translation>
    </message>
    <message>
        <source>e.g. order_update</source>
        <translation>ör. siparis_durumu</translation>
    </message>
    <message>
        <source>e.g. tr or en_US</source>
        <translation>ör. tr ya da en_US</translation>
    </message>
    <message>
        <source>Hello {{1}}, your order {{2}} is on its way.</source>
        <translation>Merhaba {{1}}, {{2}} numaralı siparişiniz yolda.</translation>
    </message>
    <message>
        <source>Quick reply buttons, one a line (optional)</source>
        <translation>Hızlı yanıt düğmeleri, her satıra bir tane (isteğe bağlı)</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Ad:</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Dil:</translation>
    </message>
    <message>
        <source>Category:</source>
        <translation>Kategori:</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Durum:</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>Metin:</translation>
    </message>
    <message>
        <source>Buttons:</source>
        <translation>Düğmeler:</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ekle</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
</context>
<context>
    <name>TemplatesPage</name>
    <message>
        <source>Templates</source>
        <translation>Şablonlar</translation>
    </message>
    <message>
        <source>&amp;Templates…</source>
        <translation>&amp;Şablonlar…</translation>
    </message>
    <message>
        <source>Marketing</source>
        <translation>Pazarlama</translation>
    </message>
    <message>
        <source>Utility</source>
        <translation>Hizmet</translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation>Kimlik doğrulama</translation>
    </message>
    <message>
        <source>Approved</source>
        <translation>Onaylı</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Beklemede</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Reddedildi</translation>
    </message>
    <message>
        <source>Message templates for WhatsApp: an approved one is needed to write first, or after 24 hours without an answer. {{1}}, {{2}}… in the text are filled in when it is sent. Add them here as they were approved in Meta&apos;s WhatsApp Manager.</source>
        <translation>WhatsApp mesaj şablonları: ilk mesajı yazmak ya da 24 saat yanıt gelmediğinde yazmak için onaylı bir şablon gerekir. Metindeki {{1}}, {{2}}… gönderirken doldurulur. Şablonları Meta&apos;nın WhatsApp Yöneticisi&apos;nde onaylandıkları gibi buraya ekleyin.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Dil</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategori</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Metin</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Ekle…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Düzenle…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Could not read the templates: %1</source>
        <translation>Şablonlar okunamadı: %1</translation>
    </message>
    <message>
        <source>Delete template</source>
        <translation>Şablonu sil</translation>
    </message>
    <message>
        <source>Delete the template &quot;%1&quot;? The composer stops offering it.</source>
        <translation>&quot;%1&quot; şablonu silinsin mi? Yanıt alanı onu artık önermez.</translation>
    </message>
    <message>
        <source>No templates yet. Add the ones Meta approved, with Add…, to send them from the Inbox.</source>
        <translation>Henüz şablon yok. Meta&apos;nın onayladığı şablonları Ekle… ile ekleyin; Gelen kutusundan gönderebilirsiniz.</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Undo</source>
        <translation>Geri al</translation>
    </message>
    <message>
        <source>Undo (Ctrl+Z)</source>
        <translation>Geri al (Ctrl+Z)</translation>
    </message>
</context>
<context>
    <name>UnsubscribeList</name>
    <message>
        <source>No campaign sends to these addresses on their channel: people who unsubscribed, addresses that bounced for good, and those added by hand.</source>
        <translation>Hiçbir kampanya bu adreslere kendi kanalında gönderim yapmaz: abonelikten çıkanlar, kalıcı olarak geri dönen adresler ve elle eklenenler.</translation>
    </message>
    <message>
        <source>Search addresses…</source>
        <translation>Adreslerde ara…</translation>
    </message>
    <message>
        <source>Search addresses</source>
        <translation>Adreslerde ara</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>Kanal</translation>
    </message>
    <message>
        <source>Every channel</source>
        <translation>Tüm kanallar</translation>
    </message>
    <message>
        <source>Add address…</source>
        <translation>Adres ekle…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Kaldır</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adres</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Neden</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Eklenme</translation>
    </message>
    <message>
        <source>Unsubscribe list</source>
        <translation>Abonelikten çıkanlar</translation>
    </message>
    <message>
        <source>Nobody has unsubscribed yet.</source>
        <translation>Henüz kimse abonelikten çıkmadı.</translation>
    </message>
    <message>
        <source>Let campaigns send to this address again</source>
        <translation>Kampanyalar bu adrese yeniden gönderebilsin</translation>
    </message>
    <message>
        <source>Only an administrator removes addresses from the list</source>
        <translation>Listeden adresleri yalnızca bir yönetici kaldırabilir</translation>
    </message>
    <message>
        <source>%1 is on the list: no campaign sends to it by %2.</source>
        <translation>%1 listede: hiçbir kampanya ona %2 ile gönderim yapmaz.</translation>
    </message>
    <message>
        <source>Add to the unsubscribe list</source>
        <translation>Abonelikten çıkanlar listesine ekle</translation>
    </message>
    <message>
        <source>an e-mail address or a phone number</source>
        <translation>bir e-posta adresi ya da telefon numarası</translation>
    </message>
    <message>
        <source>&amp;Channel</source>
        <translation>&amp;Kanal</translation>
    </message>
    <message>
        <source>&amp;Address</source>
        <translation>&amp;Adres</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ekle</translation>
    </message>
    <message>
        <source>Remove from the unsubscribe list</source>
        <translation>Abonelikten çıkanlar listesinden kaldır</translation>
    </message>
    <message>
        <source>Let campaigns send to %1 again? Remove it only when the person asked for it.</source>
        <translation>Kampanyalar %1 adresine yeniden gönderebilsin mi? Yalnızca kişi bunu istediyse kaldırın.</translation>
    </message>
    <message>
        <source>%1 was removed from the list.</source>
        <translation>%1 listeden kaldırıldı.</translation>
    </message>
</context>
<context>
    <name>UserDialog</name>
    <message>
        <source>Add user</source>
        <translation>Kullanıcı ekle</translation>
    </message>
    <message>
        <source>Edit user</source>
        <translation>Kullanıcıyı düzenle</translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation>ad@sirket.com</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Ad:</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-posta:</translation>
    </message>
    <message>
        <source>Role:</source>
        <translation>Rol:</translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>en az %n karakter</numerusform>
        </translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Parola:</translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation>Tekrar girin:</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ekle</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
</context>
<context>
    <name>UsersPage</name>
    <message>
        <source>Users</source>
        <translation>Kullanıcılar</translation>
    </message>
    <message>
        <source>&amp;Users…</source>
        <translation>K&amp;ullanıcılar…</translation>
    </message>
    <message numerus="yes">
        <source>The password must have at least %n characters.</source>
        <translation>
            <numerusform>Parola en az %n karakter olmalı.</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passwords differ.</source>
        <translation>İki parola birbirinden farklı.</translation>
    </message>
    <message>
        <source>Admin</source>
        <translation>Yönetici</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Temsilci</translation>
    </message>
    <message>
        <source>Agent: works with the CRM data</source>
        <translation>Temsilci: CRM verileriyle çalışır</translation>
    </message>
    <message>
        <source>Admin: also users, keys, webhooks, channels</source>
        <translation>Yönetici: ayrıca kullanıcılar, anahtarlar, webhook&apos;lar, kanallar</translation>
    </message>
    <message>
        <source>Everyone who signs in to Liaison, in the window or through the API. Agents work with contacts, deals, tasks and the inbox; admins also manage users, API keys, webhooks, channels and the other settings.</source>
        <translation>Liaison&apos;a pencereden ya da API üzerinden giriş yapan herkes. Temsilciler kişiler, fırsatlar, görevler ve gelen kutusuyla çalışır; yöneticiler ayrıca kullanıcıları, API anahtarlarını, webhook&apos;ları, kanalları ve diğer ayarları yönetir.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rol</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Eklenme</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Ekle…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Düzenle…</translation>
    </message>
    <message>
        <source>Set password…</source>
        <translation>Parola belirle…</translation>
    </message>
    <message>
        <source>Deactivate</source>
        <translation>Devre dışı bırak</translation>
    </message>
    <message>
        <source>Could not read the users: %1</source>
        <translation>Kullanıcılar okunamadı: %1</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Etkin</translation>
    </message>
    <message>
        <source>Deactivated</source>
        <translation>Devre dışı</translation>
    </message>
    <message>
        <source>Activate</source>
        <translation>Etkinleştir</translation>
    </message>
    <message>
        <source>Deactivate user</source>
        <translation>Kullanıcıyı devre dışı bırak</translation>
    </message>
    <message>
        <source>Deactivate %1? They are signed out at once, in the window and the API, and their API keys stop working. Their records stay.</source>
        <translation>%1 devre dışı bırakılsın mı? Pencerede ve API&apos;de oturumu hemen kapanır, API anahtarları çalışmaz olur. Kayıtları kalır.</translation>
    </message>
</context>
<context>
    <name>WebhookDialog</name>
    <message>
        <source>Edit webhook</source>
        <translation>Webhook&apos;u düzenle</translation>
    </message>
    <message>
        <source>Add webhook</source>
        <translation>Webhook ekle</translation>
    </message>
    <message>
        <source>All events, including ones added later</source>
        <translation>Sonradan eklenecekler dahil tüm olaylar</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>Oluştur</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Açıklama</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Olaylar</translation>
    </message>
    <message>
        <source>Unchanged (%1)</source>
        <translation>Değiştirilmedi (%1)</translation>
    </message>
    <message>
        <source>Rotate: generate a new secret</source>
        <translation>Yenile: yeni bir gizli anahtar oluştur</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>Gizli anahtar</translation>
    </message>
    <message>
        <source>Leave empty to generate one (at least 16 characters)</source>
        <translation>Otomatik oluşturmak için boş bırakın (en az 16 karakter)</translation>
    </message>
    <message>
        <source>Choose at least one event.</source>
        <translation>En az bir olay seçin.</translation>
    </message>
</context>
<context>
    <name>WebhookEvent</name>
    <message>
        <source>A customer&apos;s message arrives</source>
        <translation>Müşteriden mesaj gelir</translation>
    </message>
    <message>
        <source>A reply leaves for the customer</source>
        <translation>Yanıt müşteriye gönderilir</translation>
    </message>
    <message>
        <source>A reply reaches the customer</source>
        <translation>Yanıt müşteriye ulaşır</translation>
    </message>
    <message>
        <source>The customer reads a reply</source>
        <translation>Müşteri yanıtı okur</translation>
    </message>
    <message>
        <source>A reply cannot be delivered</source>
        <translation>Yanıt iletilemez</translation>
    </message>
    <message>
        <source>A conversation starts</source>
        <translation>Konuşma başlar</translation>
    </message>
    <message>
        <source>A conversation changes</source>
        <translation>Konuşma değişir</translation>
    </message>
    <message>
        <source>A conversation is assigned</source>
        <translation>Konuşma atanır</translation>
    </message>
    <message>
        <source>A conversation is closed</source>
        <translation>Konuşma kapatılır</translation>
    </message>
    <message>
        <source>A contact is added</source>
        <translation>Kişi eklenir</translation>
    </message>
    <message>
        <source>A contact changes</source>
        <translation>Kişi değişir</translation>
    </message>
    <message>
        <source>A contact is deleted</source>
        <translation>Kişi silinir</translation>
    </message>
    <message>
        <source>A deal is added</source>
        <translation>Fırsat eklenir</translation>
    </message>
    <message>
        <source>A deal changes</source>
        <translation>Fırsat değişir</translation>
    </message>
    <message>
        <source>A deal moves to another stage</source>
        <translation>Fırsat başka aşamaya geçer</translation>
    </message>
    <message>
        <source>A deal is won</source>
        <translation>Fırsat kazanılır</translation>
    </message>
    <message>
        <source>A deal is lost</source>
        <translation>Fırsat kaybedilir</translation>
    </message>
    <message>
        <source>A deal is deleted</source>
        <translation>Fırsat silinir</translation>
    </message>
    <message>
        <source>A task is added</source>
        <translation>Görev eklenir</translation>
    </message>
    <message>
        <source>A task changes</source>
        <translation>Görev değişir</translation>
    </message>
    <message>
        <source>A task is done</source>
        <translation>Görev tamamlanır</translation>
    </message>
    <message>
        <source>A task becomes overdue</source>
        <translation>Görevin süresi geçer</translation>
    </message>
    <message>
        <source>A task&apos;s reminder is due</source>
        <translation>Görev hatırlatmasının zamanı gelir</translation>
    </message>
    <message>
        <source>A segment is added</source>
        <translation>Segment eklenir</translation>
    </message>
    <message>
        <source>A segment changes</source>
        <translation>Segment değişir</translation>
    </message>
    <message>
        <source>A segment is deleted</source>
        <translation>Segment silinir</translation>
    </message>
    <message>
        <source>Contacts join a segment</source>
        <translation>Kişiler segmente katılır</translation>
    </message>
    <message>
        <source>Contacts leave a segment</source>
        <translation>Kişiler segmentten çıkar</translation>
    </message>
    <message>
        <source>processed</source>
        <translation>işlendi</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>başarısız</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>reddedildi</translation>
    </message>
    <message>
        <source>A campaign starts sending</source>
        <translation>Bir kampanyanın gönderimi başlar</translation>
    </message>
    <message>
        <source>A campaign has been sent</source>
        <translation>Bir kampanya gönderildi</translation>
    </message>
    <message>
        <source>A campaign could deliver nothing</source>
        <translation>Bir kampanya hiçbir ileti teslim edemedi</translation>
    </message>
    <message>
        <source>Contacts are imported from a CSV file (one event a batch of 500 rows)</source>
        <translation>Kişiler bir CSV dosyasından içe aktarılır (500 satırlık her parti için bir olay)</translation>
    </message>
</context>
<context>
    <name>WebhooksPage</name>
    <message>
        <source>Liaison POSTs each event to the subscribed URLs, signed with the subscription&apos;s secret (X-Service-Signature). Failed deliveries are retried; a subscription whose retries all fail is disabled.</source>
        <translation>Liaison her olayı, aboneliğin gizli anahtarıyla imzalayarak (X-Service-Signature) abone olunan URL&apos;lere POST eder. Başarısız teslimatlar yeniden denenir; tüm denemeleri başarısız olan abonelik devre dışı bırakılır.</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Olaylar</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>Başarısız</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Oluşturulma</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>Ekle…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Düzenle…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Disable</source>
        <translation>Devre dışı bırak</translation>
    </message>
    <message>
        <source>Send test</source>
        <translation>Test gönder</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zaman</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Olay</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Deneme</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Yanıt süresi</translation>
    </message>
    <message>
        <source>Next retry</source>
        <translation>Sonraki deneme</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>Yanıt</translation>
    </message>
    <message>
        <source>Redeliver</source>
        <translation>Yeniden gönder</translation>
    </message>
    <message>
        <source>Delivery log</source>
        <translation>Teslimat günlüğü</translation>
    </message>
    <message>
        <source>All events</source>
        <translation>Tüm olaylar</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Etkin</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Devre dışı: %1</translation>
    </message>
    <message>
        <source>sending…</source>
        <translation>gönderiliyor…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Enable</source>
        <translation>Etkinleştir</translation>
    </message>
    <message>
        <source>Signing secret</source>
        <translation>İmza anahtarı</translation>
    </message>
    <message>
        <source>Delete webhook</source>
        <translation>Webhook&apos;u sil</translation>
    </message>
    <message>
        <source>Delete the webhook to %1 and its delivery log? Pending deliveries are dropped.</source>
        <translation>%1 adresine giden webhook ve teslimat günlüğü silinsin mi? Bekleyen teslimatlar iptal edilir.</translation>
    </message>
    <message>
        <source>No subscriptions yet. Add one with Add… to have Liaison POST its events to your URL.</source>
        <translation>Henüz abonelik yok. Liaison&apos;un olaylarını adresinize POST etmesi için Ekle… ile bir tane ekleyin.</translation>
    </message>
</context>
<context>
    <name>WelcomeDialog</name>
    <message>
        <source>Welcome to Liaison</source>
        <translation>Liaison&apos;a hoş geldiniz</translation>
    </message>
    <message>
        <source>name@company.com</source>
        <translation>ad@sirket.com</translation>
    </message>
    <message numerus="yes">
        <source>at least %n characters</source>
        <translation>
            <numerusform>en az %n karakter</numerusform>
        </translation>
    </message>
    <message>
        <source>Your name:</source>
        <translation>Adınız:</translation>
    </message>
    <message>
        <source>E-mail:</source>
        <translation>E-posta:</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>Parola:</translation>
    </message>
    <message>
        <source>Repeat it:</source>
        <translation>Tekrar:</translation>
    </message>
    <message>
        <source>Create account</source>
        <translation>Hesap oluştur</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Sonra</translation>
    </message>
    <message>
        <source>Work without an account for now; this welcome comes back at the next start</source>
        <translation>Şimdilik hesapsız çalışın; bu karşılama bir sonraki açılışta yeniden gelir</translation>
    </message>
    <message>
        <source>Create the administrator account. It manages users, API keys, webhooks and channels, and it is the account you sign in with.</source>
        <translation>Yönetici hesabını oluşturun. Kullanıcıları, API anahtarlarını, webhook&apos;ları ve kanalları bu hesap yönetir; oturumu da bu hesapla açarsınız.</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopyala</translation>
    </message>
    <message>
        <source>Create an API key</source>
        <translation>API anahtarı oluştur</translation>
    </message>
    <message>
        <source>No key yet</source>
        <translation>Henüz anahtar yok</translation>
    </message>
    <message>
        <source>Start working</source>
        <translation>Çalışmaya başla</translation>
    </message>
    <message>
        <source>Your local API</source>
        <translation>Yerel API&apos;niz</translation>
    </message>
    <message>
        <source>Tools on this computer (scripts, automations, other apps) reach the same contacts, deals, tasks and messages through the REST API at:</source>
        <translation>Bu bilgisayardaki araçlar (betikler, otomasyonlar, başka uygulamalar) aynı kişilere, fırsatlara, görevlere ve mesajlara şu adresteki REST API ile ulaşır:</translation>
    </message>
    <message>
        <source>A tool needs an API key. It is shown only once: copy it now and keep it somewhere safe. Settings → API keys lists and revokes keys.</source>
        <translation>Bir aracın API anahtarına ihtiyacı vardır. Anahtar yalnızca bir kez gösterilir: şimdi kopyalayıp güvenli bir yerde saklayın. Ayarlar → API anahtarları anahtarları listeler ve iptal eder.</translation>
    </message>
    <message>
        <source>The API server is not running.</source>
        <translation>API sunucusu çalışmıyor.</translation>
    </message>
    <message>
        <source>The API server is not running: %1</source>
        <translation>API sunucusu çalışmıyor: %1</translation>
    </message>
    <message>
        <source>Try it:</source>
        <translation>Deneyin:</translation>
    </message>
    <message>
        <source>Enter your name.</source>
        <translation>Adınızı girin.</translation>
    </message>
    <message>
        <source>Enter an e-mail address such as name@company.com.</source>
        <translation>ad@sirket.com gibi bir e-posta adresi girin.</translation>
    </message>
    <message numerus="yes">
        <source>The password needs at least %n characters.</source>
        <translation>
            <numerusform>Parola en az %n karakter olmalı.</numerusform>
        </translation>
    </message>
    <message>
        <source>The two passwords differ.</source>
        <translation>İki parola birbirinden farklı.</translation>
    </message>
    <message>
        <source>Please check the marked fields.</source>
        <translation>Lütfen işaretli alanları kontrol edin.</translation>
    </message>
    <message>
        <source>An account with this e-mail address exists already.</source>
        <translation>Bu e-posta adresiyle bir hesap zaten var.</translation>
    </message>
    <message>
        <source>The account could not be saved: %1</source>
        <translation>Hesap kaydedilemedi: %1</translation>
    </message>
    <message>
        <source>First key</source>
        <translation>İlk anahtar</translation>
    </message>
    <message>
        <source>The key could not be made: %1</source>
        <translation>Anahtar oluşturulamadı: %1</translation>
    </message>
    <message>
        <source>A short tour</source>
        <translation>Kısa bir tur</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>Başlarken</translation>
    </message>
    <message>
        <source>Contacts</source>
        <translation>Kişiler</translation>
    </message>
    <message>
        <source>Type in the search box to find anyone by name, e-mail, company or phone, with or without the country code. Choose a contact to see their deals, conversations, tasks, notes and history on the right. Segments on the left keep lists that follow their rules, such as every VIP in İzmir.</source>
        <translation>Arama kutusuna yazarak herkesi adına, e-postasına, şirketine ya da telefonuna göre bulun; ülke kodu olsa da olmasa da. Bir kişiyi seçince fırsatları, konuşmaları, görevleri, notları ve geçmişi sağda görünür. Soldaki segmentler, kurallarına uyan kişilerin listesini kendiliğinden güncel tutar; örneğin İzmir&apos;deki tüm VIP&apos;ler.</translation>
    </message>
    <message>
        <source>Deals</source>
        <translation>Fırsatlar</translation>
    </message>
    <message>
        <source>Each column of the board is a stage. Drag a card to the next stage as the deal moves on; dropping it on Won or Lost asks for the closing value or the reason. The chart above the board adds up the value per stage in one currency at a time.</source>
        <translation>Panodaki her sütun bir aşamadır. Fırsat ilerledikçe kartı bir sonraki aşamaya sürükleyin; Kazanıldı ya da Kaybedildi sütununa bırakınca kapanış tutarı ya da nedeni sorulur. Panonun üstündeki grafik, aşama başına tutarı her seferinde tek bir para biriminde toplar.</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>Görevler</translation>
    </message>
    <message>
        <source>Write a task in the line at the top, choose Today, Tomorrow or No date, and press Enter. Today, Overdue, Upcoming and All sort what is due. A reminder shows in the window&apos;s corner at its time, and the notices button at the foot of the window lists what you missed.</source>
        <translation>Görevi üstteki satıra yazın, Bugün, Yarın ya da Tarih yok seçip Enter&apos;a basın. Bugün, Gecikmiş, Yaklaşan ve Tümü sekmeleri zamanı gelenleri ayırır. Hatırlatma zamanı gelince pencerenin köşesinde görünür; kaçırdıklarınızı pencerenin altındaki bildirim düğmesi listeler.</translation>
    </message>
    <message>
        <source>Inbox</source>
        <translation>Gelen kutusu</translation>
    </message>
    <message>
        <source>WhatsApp, Telegram, Instagram and web chat conversations in one list, newest first. Open one to answer; Ctrl+1 to Ctrl+9 insert your quick replies, and a conversation you read is marked read.</source>
        <translation>WhatsApp, Telegram, Instagram ve web sohbeti konuşmaları tek listede, en yenisi en üstte. Yanıtlamak için birini açın; Ctrl+1 ile Ctrl+9 hızlı yanıtlarınızı ekler, okuduğunuz konuşma okundu olarak işaretlenir.</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Geri al</translation>
    </message>
    <message>
        <source>Deleting a contact or a task, or completing a task, can be taken back for a few seconds with Undo at the foot of the window (Ctrl+Z).</source>
        <translation>Bir kişiyi ya da görevi silmek veya bir görevi tamamlamak, birkaç saniye içinde pencerenin altındaki Geri al ile (Ctrl+Z) geri alınabilir.</translation>
    </message>
    <message>
        <source>Your local API…</source>
        <translation>Yerel API&apos;niz…</translation>
    </message>
    <message>
        <source>Settings → Contacts changes it later.</source>
        <translation>Sonra Ayarlar → Kişiler&apos;den değiştirilebilir.</translation>
    </message>
    <message>
        <source>Phone numbers written without + are from %1 (+%2)</source>
        <translation>+ olmadan yazılan telefon numaraları %1 numarasıdır (+%2)</translation>
    </message>
</context>
<context>
    <name>WidgetSettingsPage</name>
    <message>
        <source>Put a chat button on your web site: paste this line into its pages, just before &lt;/body&gt;. Visitors&apos; messages arrive in the Inbox on the Web widget channel, and your answers appear in their chat at once.</source>
        <translation>Web sitenize bir sohbet düğmesi ekleyin: bu satırı sitenin sayfalarına, &lt;/body&gt; etiketinden hemen önce yapıştırın. Ziyaretçilerin mesajları Gelen Kutusu&apos;na web sohbet kanalından gelir; yanıtlarınız onların sohbetinde hemen görünür.</translation>
    </message>
    <message>
        <source>https://crm.example.com</source>
        <translation>https://crm.ornek.com.tr</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopyala</translation>
    </message>
    <message>
        <source>Server address:</source>
        <translation>Sunucu adresi:</translation>
    </message>
    <message>
        <source>Embed code:</source>
        <translation>Yerleştirme kodu:</translation>
    </message>
    <message>
        <source>The API server is not running: enter the address where visitors&apos; browsers reach it.</source>
        <translation>API sunucusu çalışmıyor: ziyaretçilerin tarayıcılarının sunucuya ulaştığı adresi girin.</translation>
    </message>
    <message>
        <source>This address only works on this computer. For a public site, enter the address visitors&apos; browsers reach (and let the server listen on it).</source>
        <translation>Bu adres yalnızca bu bilgisayarda çalışır. Herkese açık bir site için ziyaretçilerin tarayıcılarının ulaştığı adresi girin (ve sunucunun o adreste dinlemesini sağlayın).</translation>
    </message>
    <message>
        <source>Copied to the clipboard.</source>
        <translation>Panoya kopyalandı.</translation>
    </message>
</context>
<context>
    <name>WonDialog</name>
    <message>
        <source>Deal won: %1</source>
        <translation>Fırsat kazanıldı: %1</translation>
    </message>
    <message>
        <source>How was it won? (optional)</source>
        <translation>Nasıl kazanıldı? (isteğe bağlı)</translation>
    </message>
    <message>
        <source>Closed value</source>
        <translation>Kapanış tutarı</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Not</translation>
    </message>
    <message>
        <source>Mark won</source>
        <translation>Kazanıldı olarak işaretle</translation>
    </message>
</context>
<context>
    <name>AssistantTestConsole</name>
    <message>
        <source>Ask a question: the entries that would answer it are listed here, best first.</source>
        <translation>Bir soru sorun: onu yanıtlayabilecek kayıtlar burada, en iyisi başta listelenir.</translation>
    </message>
    <message>
        <source>Ask as a customer would, and see what the assistant answers and why. Nothing is stored or sent to anyone.</source>
        <translation>Bir müşteri gibi sorun; asistanın ne yanıt verdiğini ve nedenini görün. Hiçbir şey kaydedilmez, kimseye gönderilmez.</translation>
    </message>
    <message>
        <source>A customer&apos;s question, e.g. How much is shipping?</source>
        <translation>Bir müşteri sorusu, örneğin Kargo ücreti ne kadar?</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Soru</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Dil</translation>
    </message>
    <message>
        <source>The language of the question: found from its words, or the one chosen</source>
        <translation>Sorunun dili: kelimelerinden bulunur ya da seçtiğiniz dil kullanılır</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Otomatik</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>Sor</translation>
    </message>
    <message>
        <source>Ask the assistant (Enter)</source>
        <translation>Asistana sor (Enter)</translation>
    </message>
    <message>
        <source>Confidence: how well the best entry covers the question&apos;s words, weighted by how rare they are. Margin: its lead over the next entry. The assistant answers when both reach their thresholds.</source>
        <translation>Güven: en iyi kaydın sorunun kelimelerini ne kadar karşıladığı (nadir kelimeler daha çok sayılır). Fark: bir sonraki kayda göre önü. Asistan, ikisi de eşiğine ulaştığında yanıt verir.</translation>
    </message>
    <message>
        <source>Reply the customer gets</source>
        <translation>Müşteriye gidecek yanıt</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Adaylar</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Kayıt</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Puan</translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation>Kapsama</translation>
    </message>
    <message>
        <source>Confidence</source>
        <translation>Güven</translation>
    </message>
    <message>
        <source>Matched words</source>
        <translation>Eşleşen kelimeler</translation>
    </message>
    <message>
        <source>BM25F: the words&apos; weight in the entry&apos;s question, tags and answer</source>
        <translation>BM25F: kelimelerin kaydın sorusundaki, etiketlerindeki ve yanıtındaki ağırlığı</translation>
    </message>
    <message>
        <source>How much of the question the entry holds, rare words counting more</source>
        <translation>Sorunun ne kadarının kayıtta geçtiği; nadir kelimeler daha çok sayılır</translation>
    </message>
    <message>
        <source>Coverage weighted with how much of the entry&apos;s question the words hold</source>
        <translation>Kapsama, kelimelerin kaydın sorusunun ne kadarını karşıladığıyla birlikte tartılır</translation>
    </message>
    <message>
        <source>Asking…</source>
        <translation>Soruluyor…</translation>
    </message>
    <message>
        <source>The question could not be asked: %1</source>
        <translation>Soru sorulamadı: %1</translation>
    </message>
    <message>
        <source>Answers with “%1”</source>
        <translation>“%1” kaydıyla yanıtlar</translation>
    </message>
    <message>
        <source>Hands off to a person: %1</source>
        <translation>Temsilciye devreder: %1</translation>
    </message>
    <message>
        <source>Reply the customer gets while a person takes over</source>
        <translation>Temsilci devralana kadar müşteriye gidecek yanıt</translation>
    </message>
    <message>
        <source>none</source>
        <translation>yok</translation>
    </message>
    <message>
        <source>%1, detected</source>
        <translation>%1, algılandı</translation>
    </message>
    <message>
        <source>Confidence %1 (answers from %2) · margin %3 (at least %4) · language: %5</source>
        <translation>Güven %1 (%2 ve üstünde yanıtlar) · fark %3 (en az %4) · dil: %5</translation>
    </message>
    <message>
        <source>Words no entry holds: %1</source>
        <translation>Hiçbir kayıtta geçmeyen kelimeler: %1</translation>
    </message>
    <message>
        <source>No entry shares a word with the question.</source>
        <translation>Soruyla ortak kelimesi olan kayıt yok.</translation>
    </message>
    <message>
        <source>An entry in another language would answer (%1): “%2”, confidence %3.</source>
        <translation>Başka dildeki bir kayıt yanıtlayabilirdi (%1): “%2”, güven %3.</translation>
    </message>
</context>
<context>
    <name>AssistantText</name>
    <message>
        <source>FAQ</source>
        <translation>SSS</translation>
    </message>
    <message>
        <source>Article</source>
        <translation>Makale</translation>
    </message>
    <message>
        <source>Snippet</source>
        <translation>Hazır yanıt</translation>
    </message>
    <message>
        <source>No entry of the knowledge base answers it</source>
        <translation>Bilgi bankasında onu yanıtlayan kayıt yok</translation>
    </message>
    <message>
        <source>The best entry is not close enough</source>
        <translation>En iyi kayıt yeterince yakın değil</translation>
    </message>
    <message>
        <source>Two entries answer it about as well</source>
        <translation>İki kayıt onu hemen hemen aynı ölçüde yanıtlıyor</translation>
    </message>
    <message>
        <source>The customer asks for a person</source>
        <translation>Müşteri bir temsilci istiyor</translation>
    </message>
    <message>
        <source>The knowledge base holds no entry in this language</source>
        <translation>Bilgi bankasında bu dilde kayıt yok</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%%1</translation>
    </message>
</context>
<context>
    <name>AssistantView</name>
    <message>
        <source>Knowledge base</source>
        <translation>Bilgi bankası</translation>
    </message>
    <message>
        <source>Test console</source>
        <translation>Test konsolu</translation>
    </message>
    <message>
        <source>The questions customers ask and the answers the assistant gives</source>
        <translation>Müşterilerin sorduğu sorular ve asistanın verdiği yanıtlar</translation>
    </message>
    <message>
        <source>Ask a question and see what the assistant would answer, and why</source>
        <translation>Bir soru sorun; asistanın ne yanıt vereceğini ve nedenini görün</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Asistan</translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation>Öneriler</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>İstatistikler</translation>
    </message>
    <message>
        <source>Questions the assistant could not answer, grouped: answer them into entries</source>
        <translation>Asistanın yanıtlayamadığı sorular, gruplanmış: yanıtlayıp kayda dönüştürün</translation>
    </message>
    <message>
        <source>How many questions the assistant answered and handed off, and how its answers were rated</source>
        <translation>Asistanın kaç soruyu yanıtladığı, kaçını devrettiği ve yanıtlarının nasıl puanlandığı</translation>
    </message>
</context>
<context>
    <name>KnowledgeBasePanel</name>
    <message>
        <source>New…</source>
        <translation>Yeni…</translation>
    </message>
    <message>
        <source>Write a new entry (Ctrl+N)</source>
        <translation>Yeni bir kayıt yazın (Ctrl+N)</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>Düzenle…</translation>
    </message>
    <message>
        <source>Change the chosen entry (Enter, or a double-click)</source>
        <translation>Seçili kaydı değiştirin (Enter ya da çift tıklama)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Delete the chosen entry (Delete)</source>
        <translation>Seçili kaydı silin (Delete)</translation>
    </message>
    <message>
        <source>Import CSV…</source>
        <translation>CSV içe aktar…</translation>
    </message>
    <message>
        <source>Add or change entries from a CSV file: columns question, answer, language, and type, tags, id when you have them</source>
        <translation>Bir CSV dosyasından kayıt ekleyin ya da değiştirin: question, answer, language sütunları; varsa type, tags, id de</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV dışa aktar…</translation>
    </message>
    <message>
        <source>Save the entries the search and filters show</source>
        <translation>Aramanın ve filtrelerin gösterdiği kayıtları kaydedin</translation>
    </message>
    <message>
        <source>Search questions, answers and tags…</source>
        <translation>Sorularda, yanıtlarda ve etiketlerde ara…</translation>
    </message>
    <message>
        <source>Search the knowledge base</source>
        <translation>Bilgi bankasında ara</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Dil</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tür</translation>
    </message>
    <message>
        <source>Every type</source>
        <translation>Tüm türler</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>Etiket</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Göster:</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Soru</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>Etiketler</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Güncellenme</translation>
    </message>
    <message>
        <source>Knowledge base</source>
        <translation>Bilgi bankası</translation>
    </message>
    <message>
        <source>The knowledge base is empty. Write the questions customers ask and their answers, or import them from a CSV file.</source>
        <translation>Bilgi bankası boş. Müşterilerin sorduğu soruları ve yanıtlarını yazın ya da bir CSV dosyasından içe aktarın.</translation>
    </message>
    <message>
        <source>Import progress</source>
        <translation>İçe aktarma ilerlemesi</translation>
    </message>
    <message>
        <source>Cancel import</source>
        <translation>İçe aktarmayı iptal et</translation>
    </message>
    <message>
        <source>Stop after the rows being written: those saved until then stay</source>
        <translation>Yazılmakta olan satırlardan sonra durur: o ana kadar kaydedilenler kalır</translation>
    </message>
    <message>
        <source>Every language</source>
        <translation>Tüm diller</translation>
    </message>
    <message>
        <source>Every tag</source>
        <translation>Tüm etiketler</translation>
    </message>
    <message>
        <source>No entry matches the search or the filters.</source>
        <translation>Aramaya ya da filtrelere uyan kayıt yok.</translation>
    </message>
    <message>
        <source>Clear the search and filters</source>
        <translation>Aramayı ve filtreleri temizle</translation>
    </message>
    <message>
        <source>New entry…</source>
        <translation>Yeni kayıt…</translation>
    </message>
    <message>
        <source>Entry saved.</source>
        <translation>Kayıt kaydedildi.</translation>
    </message>
    <message>
        <source>Delete entry</source>
        <translation>Kaydı sil</translation>
    </message>
    <message>
        <source>Delete “%1”? The assistant stops answering with it.</source>
        <translation>“%1” silinsin mi? Asistan artık onunla yanıt vermez.</translation>
    </message>
    <message>
        <source>Entry deleted.</source>
        <translation>Kayıt silindi.</translation>
    </message>
    <message>
        <source>Import knowledge from CSV</source>
        <translation>CSV dosyasından bilgi içe aktar</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt)</source>
        <translation>CSV dosyaları (*.csv *.txt)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tüm dosyalar (*)</translation>
    </message>
    <message>
        <source>%1 is too large to import (at most %2 MB).</source>
        <translation>%1 içe aktarmak için çok büyük (en fazla %2 MB).</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 okunamıyor: %2</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 içe aktarılıyor…</translation>
    </message>
    <message>
        <source>Stopping after the rows being written…</source>
        <translation>Yazılmakta olan satırlardan sonra duruluyor…</translation>
    </message>
    <message>
        <source>Importing %1: %2 of %3 rows…</source>
        <translation>%1 içe aktarılıyor: %3 satırın %2 tanesi…</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>%1 içe aktarılmadı: %2</translation>
    </message>
    <message>
        <source>Import CSV</source>
        <translation>CSV içe aktar</translation>
    </message>
    <message>
        <source>Import of %1 stopped: %2 new, %3 changed.</source>
        <translation>%1 içe aktarması durduruldu: %2 yeni, %3 değişen.</translation>
    </message>
    <message>
        <source>%1 imported: %2 new, %3 changed, %4 left out.</source>
        <translation>%1 içe aktarıldı: %2 yeni, %3 değişen, %4 atlanan.</translation>
    </message>
    <message>
        <source>Export knowledge to CSV</source>
        <translation>Bilgiyi CSV olarak dışa aktar</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV dosyaları (*.csv)</translation>
    </message>
    <message>
        <source>knowledge-base.csv</source>
        <translation>bilgi-bankasi.csv</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 kaydedilmedi: %2</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entries saved to %1.</source>
        <translation>
            <numerusform>%Ln kayıt %1 dosyasına kaydedildi.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>KnowledgeEditor</name>
    <message>
        <source>Edit knowledge entry</source>
        <translation>Bilgi kaydını düzenle</translation>
    </message>
    <message>
        <source>New knowledge entry</source>
        <translation>Yeni bilgi kaydı</translation>
    </message>
    <message>
        <source>FAQ: a question and its answer; article: a longer text; snippet: a ready reply</source>
        <translation>SSS: bir soru ve yanıtı; makale: daha uzun bir metin; hazır yanıt: kullanıma hazır bir yanıt</translation>
    </message>
    <message>
        <source>The language the customer writes in: choose one, or type its code (de, ar, …)</source>
        <translation>Müşterinin yazdığı dil: birini seçin ya da kodunu yazın (de, ar, …)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>As a customer would ask it</source>
        <translation>Bir müşterinin soracağı gibi</translation>
    </message>
    <message>
        <source>The reply the customer gets</source>
        <translation>Müşteriye gidecek yanıt</translation>
    </message>
    <message>
        <source>Separated by commas: shipping, returns</source>
        <translation>Virgülle ayırın: kargo, iade</translation>
    </message>
    <message>
        <source>&amp;Type</source>
        <translation>&amp;Tür</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Dil</translation>
    </message>
    <message>
        <source>&amp;Question</source>
        <translation>&amp;Soru</translation>
    </message>
    <message>
        <source>&amp;Answer</source>
        <translation>&amp;Yanıt</translation>
    </message>
    <message>
        <source>Ta&amp;gs</source>
        <translation>&amp;Etiketler</translation>
    </message>
    <message>
        <source>Last changed %1</source>
        <translation>Son değişiklik: %1</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Kaydet</translation>
    </message>
    <message>
        <source>Save (Ctrl+Enter)</source>
        <translation>Kaydet (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>İptal</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Kaydediliyor…</translation>
    </message>
</context>
<context>
    <name>KnowledgeImportReportDialog</name>
    <message>
        <source>Import of %1</source>
        <translation>%1 içe aktarması</translation>
    </message>
    <message>
        <source>Stopped at Cancel: the rows read until then are saved, the rest of the file is not.</source>
        <translation>İptal ile durduruldu: o ana kadar okunan satırlar kaydedildi, dosyanın geri kalanı kaydedilmedi.</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Satır</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Alan</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Sorun</translation>
    </message>
    <message>
        <source>Rows left out</source>
        <translation>Atlanan satırlar</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Kapat</translation>
    </message>
    <message>
        <source>Save as CSV…</source>
        <translation>CSV olarak kaydet…</translation>
    </message>
    <message>
        <source>Save the rows left out, with their lines and problems, to fix the file</source>
        <translation>Dosyayı düzeltmek için atlanan satırları, satır numaraları ve sorunlarıyla kaydedin</translation>
    </message>
    <message>
        <source>Save the import report</source>
        <translation>İçe aktarma raporunu kaydet</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV dosyaları (*.csv)</translation>
    </message>
    <message>
        <source>%1-report.csv</source>
        <translation>%1-rapor.csv</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>%1 dosyasına kaydedildi.</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1 kaydedilemedi: %2</translation>
    </message>
    <message>
        <source>New entries: %1 · changed: %2 · unchanged: %3 · left out: %4 (of %5 rows read)</source>
        <translation>Yeni kayıt: %1 · değişen: %2 · aynı kalan: %3 · atlanan: %4 (okunan %5 satırdan)</translation>
    </message>
</context>
<context>
    <name>AssistantPage</name>
    <message>
        <source>Website</source>
        <translation>Web sitesi</translation>
    </message>
    <message>
        <source>The assistant answers customers&apos; questions from the knowledge base, and hands to a person what it cannot answer. The language model&apos;s key is kept in the system keychain; changes take effect at the next start.</source>
        <translation>Asistan müşterilerin sorularını bilgi bankasından yanıtlar, yanıtlayamadığını bir temsilciye devreder. Dil modelinin anahtarı sistemin anahtar zincirinde saklanır; değişiklikler bir sonraki başlatmada geçerli olur.</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>Dil modeli</translation>
    </message>
    <message>
        <source>Optional: an OpenAI-compatible server (llama.cpp&apos;s llama-server, Ollama&apos;s /v1 or a hosted service) that words the answer from the entries the assistant found. Without one, customers get the entry&apos;s answer as written.</source>
        <translation>İsteğe bağlı: asistanın bulduğu kayıtlardan yanıtı kendi sözleriyle yazan, OpenAI ile uyumlu bir sunucu (llama.cpp&apos;nin llama-server&apos;ı, Ollama&apos;nın /v1 adresi ya da barındırılan bir hizmet). Model yoksa müşteri kaydın yanıtını yazıldığı gibi alır.</translation>
    </message>
    <message>
        <source>API base URL</source>
        <translation>API temel URL&apos;si</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API anahtarı</translation>
    </message>
    <message>
        <source>Only if the server asks for one</source>
        <translation>Yalnızca sunucu istiyorsa</translation>
    </message>
    <message>
        <source>Remove the stored key</source>
        <translation>Kayıtlı anahtarı kaldır</translation>
    </message>
    <message>
        <source> s</source>
        <translation> sn</translation>
    </message>
    <message>
        <source>How long one answer of the model may take; past it the entry&apos;s answer is sent</source>
        <translation>Modelin bir yanıtı en fazla ne kadar sürebilir; süre aşılırsa kaydın yanıtı gönderilir</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Zaman aşımı</translation>
    </message>
    <message>
        <source>Try the model</source>
        <translation>Modeli dene</translation>
    </message>
    <message>
        <source>Ask the model one question with the values above (saved or not): “%1”</source>
        <translation>Modele yukarıdaki değerlerle (kaydedilmiş olsun ya da olmasın) tek bir soru sorun: “%1”</translation>
    </message>
    <message>
        <source>When the assistant answers</source>
        <translation>Asistan ne zaman yanıtlar</translation>
    </message>
    <message>
        <source>Answer threshold</source>
        <translation>Yanıt eşiği</translation>
    </message>
    <message>
        <source>The assistant answers when its best entry covers the question at least this well (0 to 1; default 0.30); below it, the question goes to a person. Higher: fewer answers, surer ones.</source>
        <translation>Asistan, en iyi kaydı soruyu en az bu kadar karşılıyorsa yanıtlar (0 ile 1 arası; varsayılan 0,30); altında soru bir temsilciye gider. Yüksek değer: daha az ama daha emin yanıt.</translation>
    </message>
    <message>
        <source>Margin threshold</source>
        <translation>Fark eşiği</translation>
    </message>
    <message>
        <source>The lead the best entry needs over the next one with another answer (0 to 1; default 0.02); closer than this, the question is ambiguous and goes to a person.</source>
        <translation>En iyi kaydın, başka bir yanıtı olan bir sonraki kayda karşı gereken üstünlüğü (0 ile 1 arası; varsayılan 0,02); fark bundan azsa soru belirsiz sayılır ve bir temsilciye gider.</translation>
    </message>
    <message>
        <source>In the Inbox</source>
        <translation>Gelen kutusunda</translation>
    </message>
    <message>
        <source>Off: the assistant stays out of the channel&apos;s conversations. Suggest: its answer waits in the composer for an agent to send, change or discard. On: it answers at once, and hands to a person what it cannot answer.</source>
        <translation>Kapalı: asistan kanalın konuşmalarına karışmaz. Öneri: yanıtı, bir temsilcinin göndermesi, değiştirmesi ya da silmesi için mesaj kutusunda bekler. Açık: hemen yanıtlar, yanıtlayamadığını bir temsilciye devreder.</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Kapalı</translation>
    </message>
    <message>
        <source>Suggest</source>
        <translation>Öneri</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Açık</translation>
    </message>
    <message>
        <source>The assistant&apos;s name</source>
        <translation>Asistanın adı</translation>
    </message>
    <message>
        <source>The name customers see on the assistant&apos;s messages</source>
        <translation>Müşterilerin asistanın mesajlarında gördüğü ad</translation>
    </message>
    <message>
        <source>Are you open on Saturdays?</source>
        <translation>Cumartesi açık mısınız?</translation>
    </message>
    <message>
        <source>What are your opening hours?</source>
        <translation>Çalışma saatleriniz nedir?</translation>
    </message>
    <message>
        <source>We are open from 9:00 to 18:00 on weekdays and from 10:00 to 16:00 on Saturdays.</source>
        <translation>Hafta içi 09:00–18:00, cumartesi 10:00–16:00 arası açığız.</translation>
    </message>
    <message>
        <source>The key typed above is stored when you save.</source>
        <translation>Yukarıya yazılan anahtar, kaydettiğinizde saklanır.</translation>
    </message>
    <message>
        <source>No key is stored.</source>
        <translation>Kayıtlı anahtar yok.</translation>
    </message>
    <message>
        <source>A key is stored; type another to replace it.</source>
        <translation>Bir anahtar kayıtlı; değiştirmek için yenisini yazın.</translation>
    </message>
    <message>
        <source>correct the fields marked above.</source>
        <translation>yukarıda işaretli alanları düzeltin.</translation>
    </message>
    <message>
        <source>Not asked: correct the fields marked above.</source>
        <translation>Sorulmadı: yukarıda işaretli alanları düzeltin.</translation>
    </message>
    <message>
        <source>Type the model&apos;s base URL first.</source>
        <translation>Önce modelin temel URL&apos;sini yazın.</translation>
    </message>
    <message>
        <source>Not asked: no language model is set up.</source>
        <translation>Sorulmadı: ayarlı bir dil modeli yok.</translation>
    </message>
    <message>
        <source>Trying the model is not available here.</source>
        <translation>Model burada denenemiyor.</translation>
    </message>
    <message>
        <source>Asking the model…</source>
        <translation>Modele soruluyor…</translation>
    </message>
    <message>
        <source>The model answered in %1 s: “%2”</source>
        <translation>Model %1 saniyede yanıtladı: “%2”</translation>
    </message>
    <message>
        <source>The model answered in %1 s that the entry does not answer the question: it would hand the question to a person.</source>
        <translation>Model %1 saniyede kaydın soruyu yanıtlamadığını söyledi: soruyu bir temsilciye devrederdi.</translation>
    </message>
    <message>
        <source>No answer from the model: %1</source>
        <translation>Modelden yanıt gelmedi: %1</translation>
    </message>
    <message>
        <source>no connection</source>
        <translation>bağlantı yok</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Asistan</translation>
    </message>
    <message>
        <source>Assista&amp;nt…</source>
        <translation>Asis&amp;tan…</translation>
    </message>
    <message>
        <source>e.g. %1</source>
        <translation>örn. %1</translation>
    </message>
</context>
<context>
    <name>AssistantStatsPanel</name>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Son %n gün</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Period:</source>
        <translation>&amp;Dönem:</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Dönem</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Sorular</translation>
    </message>
    <message>
        <source>Questions the assistant was asked in the period</source>
        <translation>Dönem içinde asistana sorulan sorular</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>Yanıtlanan</translation>
    </message>
    <message>
        <source>Answered from the knowledge base, without a person</source>
        <translation>Bir temsilci olmadan, bilgi bankasından yanıtlanan</translation>
    </message>
    <message>
        <source>Handed off</source>
        <translation>Devredilen</translation>
    </message>
    <message>
        <source>Handed to a person: why, in the table of reasons</source>
        <translation>Bir temsilciye devredilen; nedenleri tabloda</translation>
    </message>
    <message>
        <source>Average confidence</source>
        <translation>Ortalama güven</translation>
    </message>
    <message>
        <source>How well the best entry covered the question, on average over every question</source>
        <translation>En iyi kaydın soruyu ne kadar karşıladığı, tüm soruların ortalaması</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>Geri bildirim</translation>
    </message>
    <message>
        <source>Ratings of the answers, and the share that were positive</source>
        <translation>Yanıtlara verilen puanlar ve olumlu olanların payı</translation>
    </message>
    <message>
        <source>Open suggestions</source>
        <translation>Açık öneriler</translation>
    </message>
    <message>
        <source>Groups of questions nobody answered yet, whatever the period: the Suggestions tab lists them</source>
        <translation>Henüz kimsenin yanıtlamadığı soru grupları, dönemden bağımsız: Öneriler sekmesinde listelenir</translation>
    </message>
    <message>
        <source>Questions per day</source>
        <translation>Günlere göre sorular</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Neden</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Pay</translation>
    </message>
    <message>
        <source>Why questions went to a person</source>
        <translation>Sorular neden temsilciye gitti</translation>
    </message>
    <message>
        <source>No question went to a person in this period.</source>
        <translation>Bu dönemde hiçbir soru temsilciye gitmedi.</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Kayıt</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>Yanıt</translation>
    </message>
    <message>
        <source>Most used entries</source>
        <translation>En çok kullanılan kayıtlar</translation>
    </message>
    <message>
        <source>No question was answered in this period.</source>
        <translation>Bu dönemde hiçbir soru yanıtlanmadı.</translation>
    </message>
    <message>
        <source>Negative</source>
        <translation>Olumsuz</translation>
    </message>
    <message>
        <source>Positive</source>
        <translation>Olumlu</translation>
    </message>
    <message>
        <source>Negative share</source>
        <translation>Olumsuz payı</translation>
    </message>
    <message>
        <source>Entries with the worst feedback</source>
        <translation>En kötü geri bildirim alan kayıtlar</translation>
    </message>
    <message>
        <source>No answer got negative feedback in this period.</source>
        <translation>Bu dönemde hiçbir yanıt olumsuz geri bildirim almadı.</translation>
    </message>
    <message>
        <source>Double-click an entry, or press Enter, to open it</source>
        <translation>Bir kaydı açmak için çift tıklayın ya da Enter&apos;a basın</translation>
    </message>
    <message>
        <source>That entry was deleted since.</source>
        <translation>Bu kayıt o zamandan beri silinmiş.</translation>
    </message>
    <message>
        <source>Reading the figures…</source>
        <translation>Rakamlar okunuyor…</translation>
    </message>
    <message>
        <source>The figures could not be read: %1</source>
        <translation>Rakamlar okunamadı: %1</translation>
    </message>
    <message>
        <source>%1 to %2, in %3</source>
        <translation>%1 – %2, %3 saatiyle</translation>
    </message>
    <message numerus="yes">
        <source>in the last %n day(s)</source>
        <translation>
            <numerusform>son %n günde</numerusform>
        </translation>
    </message>
    <message>
        <source>rate: %1</source>
        <translation>oran: %1</translation>
    </message>
    <message>
        <source>over every question</source>
        <translation>tüm soruların ortalaması</translation>
    </message>
    <message>
        <source>no questions yet</source>
        <translation>henüz soru yok</translation>
    </message>
    <message>
        <source>positive: %1</source>
        <translation>olumlu: %1</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>henüz yok</translation>
    </message>
    <message>
        <source>(deleted entry)</source>
        <translation>(silinmiş kayıt)</translation>
    </message>
    <message>
        <source>waiting for an answer</source>
        <translation>yanıt bekliyor</translation>
    </message>
</context>
<context>
    <name>SuggestionsPanel</name>
    <message>
        <source>Questions the assistant handed to a person because no entry answered them, grouped when customers asked the same in other words. Answer one to teach it to the assistant.</source>
        <translation>Hiçbir kayıt yanıtlamadığı için asistanın temsilciye devrettiği sorular; müşteriler aynı şeyi başka sözlerle sorduğunda bir arada. Birini yanıtlayın, asistan da öğrensin.</translation>
    </message>
    <message>
        <source>Accept…</source>
        <translation>Kabul et…</translation>
    </message>
    <message>
        <source>Write the answer: the question becomes an entry of the knowledge base (Enter, or a double-click)</source>
        <translation>Yanıtı yazın: soru bilgi bankasında bir kayıt olur (Enter ya da çift tıklama)</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Yok say</translation>
    </message>
    <message>
        <source>Take it off the list: the same question asked again does not bring it back (Delete)</source>
        <translation>Listeden kaldırın: aynı soru yeniden sorulsa da geri gelmez (Delete)</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Soru</translation>
    </message>
    <message>
        <source>Asked</source>
        <translation>Kaç kez</translation>
    </message>
    <message>
        <source>Last asked</source>
        <translation>Son soruluş</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Dil</translation>
    </message>
    <message>
        <source>Suggestions</source>
        <translation>Öneriler</translation>
    </message>
    <message>
        <source>How many times customers asked it</source>
        <translation>Müşterilerin bunu kaç kez sorduğu</translation>
    </message>
    <message>
        <source>No suggestions: the assistant answered every question customers asked, or they were dealt with.</source>
        <translation>Öneri yok: asistan müşterilerin sorduğu her soruyu yanıtladı ya da sorular ele alındı.</translation>
    </message>
    <message>
        <source>Reading the questions…</source>
        <translation>Sorular okunuyor…</translation>
    </message>
    <message>
        <source>The suggestions could not be read: %1</source>
        <translation>Öneriler okunamadı: %1</translation>
    </message>
    <message>
        <source>Asked once, on %1.</source>
        <translation>Bir kez soruldu: %1.</translation>
    </message>
    <message numerus="yes">
        <source>Asked %n time(s), first on %1, last on %2.</source>
        <translation>
            <numerusform>%n kez soruldu; ilk %1, son %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>Also asked as: %1</source>
        <translation>Şöyle de soruldu: %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Why it went to a person: %1</source>
        <translation>Temsilciye gitme nedeni: %1</translation>
    </message>
    <message>
        <source>Answer a suggestion</source>
        <translation>Öneriyi yanıtla</translation>
    </message>
    <message numerus="yes">
        <source>Customers asked this %n time(s). Write the answer the assistant should give: once saved, the entry answers these questions and the suggestion leaves the list.</source>
        <translation>
            <numerusform>Müşteriler bunu %n kez sordu. Asistanın vereceği yanıtı yazın: kaydedince kayıt bu soruları yanıtlar ve öneri listeden çıkar.</numerusform>
        </translation>
    </message>
    <message>
        <source>Entry saved: the assistant answers these questions now.</source>
        <translation>Kayıt kaydedildi: asistan artık bu soruları yanıtlıyor.</translation>
    </message>
    <message>
        <source>Dismiss suggestion</source>
        <translation>Öneriyi yok say</translation>
    </message>
    <message>
        <source>Dismiss “%1”? Its questions leave the list, and the same question asked again does not bring it back.</source>
        <translation>“%1” yok sayılsın mı? Soruları listeden çıkar; aynı soru yeniden sorulsa da geri gelmez.</translation>
    </message>
    <message>
        <source>Suggestion dismissed.</source>
        <translation>Öneri yok sayıldı.</translation>
    </message>
    <message>
        <source>Suggestion “%1” dismissed.</source>
        <translation>“%1” önerisi yok sayıldı.</translation>
    </message>
    <message>
        <source>Undone.</source>
        <translation>Geri alındı.</translation>
    </message>
    <message>
        <source>The suggestion was not dismissed: %1</source>
        <translation>Öneri yok sayılamadı: %1</translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message>
        <source>Find duplicates</source>
        <translation>Yinelenenleri bul</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Yenile</translation>
    </message>
    <message>
        <source>Groups of duplicates</source>
        <translation>Yinelenen grupları</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>Kalacak</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Birleştir</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>E-mail</source>
        <translation>E-posta</translation>
    </message>
    <message>
        <source>Phone</source>
        <translation>Telefon</translation>
    </message>
    <message>
        <source>Company</source>
        <translation>Şirket</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Oluşturulma</translation>
    </message>
    <message>
        <source>Contacts of the group</source>
        <translation>Gruptaki kişiler</translation>
    </message>
    <message>
        <source>Merge into the kept contact</source>
        <translation>Kalacak kişiyle birleştir</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Geri al</translation>
    </message>
    <message>
        <source>Same e-mail: %1</source>
        <translation>Aynı e-posta: %1</translation>
    </message>
    <message>
        <source>Same phone: %1</source>
        <translation>Aynı telefon: %1</translation>
    </message>
    <message>
        <source>Same name and company: %1</source>
        <translation>Aynı ad ve şirket: %1</translation>
    </message>
    <message>
        <source>No duplicates found.</source>
        <translation>Yinelenen kişi bulunmadı.</translation>
    </message>
    <message>
        <source>Groups of contacts that look like one person: %1 (the newest %2 are listed).</source>
        <translation>Aynı kişi gibi görünen kişi grupları: %1 (en yeni %2 grup listeleniyor).</translation>
    </message>
    <message>
        <source>Groups of contacts that look like one person: %1.</source>
        <translation>Aynı kişi gibi görünen kişi grupları: %1.</translation>
    </message>
    <message>
        <source>e-mail</source>
        <translation>e-posta</translation>
    </message>
    <message>
        <source>phone</source>
        <translation>telefon</translation>
    </message>
    <message>
        <source>name and company</source>
        <translation>ad ve şirket</translation>
    </message>
    <message>
        <source>Same %1</source>
        <translation>Aynı %1</translation>
    </message>
    <message>
        <source>Why they match:</source>
        <translation>Neden eşleşiyorlar:</translation>
    </message>
    <message>
        <source>Keep this contact</source>
        <translation>Bu kişi kalsın</translation>
    </message>
    <message>
        <source>Merge this contact into the kept one</source>
        <translation>Bu kişiyi kalacak kişiyle birleştir</translation>
    </message>
    <message>
        <source>Tick at least one contact to merge.</source>
        <translation>Birleştirmek için en az bir kişiyi işaretleyin.</translation>
    </message>
    <message>
        <source>notes: %1</source>
        <translation>notlar: %1</translation>
    </message>
    <message>
        <source>deals: %1</source>
        <translation>fırsatlar: %1</translation>
    </message>
    <message>
        <source>tasks: %1</source>
        <translation>görevler: %1</translation>
    </message>
    <message>
        <source>conversations: %1</source>
        <translation>konuşmalar: %1</translation>
    </message>
    <message>
        <source>segment memberships: %1</source>
        <translation>segment üyelikleri: %1</translation>
    </message>
    <message>
        <source>campaign records: %1</source>
        <translation>kampanya kayıtları: %1</translation>
    </message>
    <message>
        <source>%1 is kept; %2 other contact(s) are merged into it and removed.</source>
        <translation>%1 kalır; diğer %2 kişi onunla birleştirilip silinir.</translation>
    </message>
    <message>
        <source>Nothing else moves.</source>
        <translation>Başka taşınan kayıt yok.</translation>
    </message>
    <message>
        <source>Moves to the kept contact: %1.</source>
        <translation>Kalacak kişiye taşınanlar: %1.</translation>
    </message>
    <message>
        <source>Fields it takes from the others: %1.</source>
        <translation>Diğerlerinden aldığı alanlar: %1.</translation>
    </message>
    <message>
        <source>Merged into %1: %2 contact(s).</source>
        <translation>%1 ile birleştirildi: %2 kişi.</translation>
    </message>
    <message>
        <source>Merge undone: %1 contact(s) are back.</source>
        <translation>Birleştirme geri alındı: %1 kişi geri geldi.</translation>
    </message>
    <message>
        <source>Keep %1</source>
        <translation>%1 kalsın</translation>
    </message>
    <message>
        <source>Looking for duplicates…</source>
        <translation>Yinelenenler aranıyor…</translation>
    </message>
    <message>
        <source>Not kept (it has its own): %1.</source>
        <translation>Alınmayanlar (kendi değeri var): %1.</translation>
    </message>
    <message>
        <source>Contacts merged into %1.</source>
        <translation>Kişiler %1 ile birleştirildi.</translation>
    </message>
</context>
<context>
    <name>HomeView</name>
    <message>
        <source>Home</source>
        <translation>Ana sayfa</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Satış hattı</translation>
    </message>
    <message>
        <source>&amp;Pipeline:</source>
        <translation>&amp;Satış hattı:</translation>
    </message>
    <message>
        <source>Messages of</source>
        <translation>Mesajlar</translation>
    </message>
    <message numerus="yes">
        <source>Last %n day(s)</source>
        <translation>
            <numerusform>Son %n gün</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Messages of:</source>
        <translation>&amp;Mesajlar:</translation>
    </message>
    <message>
        <source>Tasks due today</source>
        <translation>Bugünkü görevler</translation>
    </message>
    <message>
        <source>Your open tasks due today: click to see them in Tasks</source>
        <translation>Bugün için açık görevleriniz: Görevler&apos;de görmek için tıklayın</translation>
    </message>
    <message>
        <source>Overdue tasks</source>
        <translation>Gecikmiş görevler</translation>
    </message>
    <message>
        <source>Your open tasks past their due time: click to see them in Tasks</source>
        <translation>Süresi geçmiş açık görevleriniz: Görevler&apos;de görmek için tıklayın</translation>
    </message>
    <message>
        <source>Waiting for an answer</source>
        <translation>Yanıt bekleyenler</translation>
    </message>
    <message>
        <source>Conversations whose last message came from the customer and that are not closed: click to see them in the Inbox</source>
        <translation>Son mesajı müşteriden gelen ve kapatılmamış konuşmalar: Gelen kutusunda görmek için tıklayın</translation>
    </message>
    <message>
        <source>Open deals</source>
        <translation>Açık fırsatlar</translation>
    </message>
    <message>
        <source>Deals in the pipeline&apos;s open stages and their value weighted by each stage&apos;s probability, per currency: click to open the board</source>
        <translation>Satış hattının açık aşamalarındaki fırsatlar ve her aşamanın olasılığıyla ağırlıklandırılmış değerleri, para birimi başına: panoyu açmak için tıklayın</translation>
    </message>
    <message>
        <source>Open deals by stage</source>
        <translation>Aşamalara göre açık fırsatlar</translation>
    </message>
    <message>
        <source>No open deals in this pipeline yet: a deal created in Deals shows here.</source>
        <translation>Bu satış hattında henüz açık fırsat yok: Fırsatlar&apos;da oluşturulan bir fırsat burada görünür.</translation>
    </message>
    <message>
        <source>Won, last 30 days</source>
        <translation>Kazanılan, son 30 gün</translation>
    </message>
    <message>
        <source>Deals won in the last 30 days, today included: click to list them</source>
        <translation>Son 30 günde (bugün dahil) kazanılan fırsatlar: listelemek için tıklayın</translation>
    </message>
    <message>
        <source>Won, last 90 days</source>
        <translation>Kazanılan, son 90 gün</translation>
    </message>
    <message>
        <source>Deals won in the last 90 days, today included: click to list them</source>
        <translation>Son 90 günde (bugün dahil) kazanılan fırsatlar: listelemek için tıklayın</translation>
    </message>
    <message>
        <source>Lost, last 30 days</source>
        <translation>Kaybedilen, son 30 gün</translation>
    </message>
    <message>
        <source>Deals lost in the last 30 days, today included: click to list them</source>
        <translation>Son 30 günde (bugün dahil) kaybedilen fırsatlar: listelemek için tıklayın</translation>
    </message>
    <message>
        <source>Lost, last 90 days</source>
        <translation>Kaybedilen, son 90 gün</translation>
    </message>
    <message>
        <source>Deals lost in the last 90 days, today included: click to list them</source>
        <translation>Son 90 günde (bugün dahil) kaybedilen fırsatlar: listelemek için tıklayın</translation>
    </message>
    <message>
        <source>Messages per day</source>
        <translation>Günlük mesajlar</translation>
    </message>
    <message>
        <source>Click a bar to see the channel&apos;s conversations in the Inbox</source>
        <translation>Kanalın konuşmalarını Gelen kutusunda görmek için bir çubuğa tıklayın</translation>
    </message>
    <message>
        <source>No messages in this period: conversations of WhatsApp, Telegram, Instagram and the web widget are counted here.</source>
        <translation>Bu dönemde mesaj yok: WhatsApp, Telegram, Instagram ve web sohbet aracı konuşmaları burada sayılır.</translation>
    </message>
    <message>
        <source>Reading the figures…</source>
        <translation>Rakamlar okunuyor…</translation>
    </message>
    <message>
        <source>The figures could not be read: %1</source>
        <translation>Rakamlar okunamadı: %1</translation>
    </message>
    <message>
        <source>As of %1</source>
        <translation>%1 itibarıyla</translation>
    </message>
    <message>
        <source>nobody is signed in</source>
        <translation>oturum açan yok</translation>
    </message>
    <message>
        <source>assigned to you</source>
        <translation>size atanmış</translation>
    </message>
    <message>
        <source>past their due time</source>
        <translation>süresi geçmiş</translation>
    </message>
    <message>
        <source>nothing late</source>
        <translation>geciken yok</translation>
    </message>
    <message>
        <source>no open deals</source>
        <translation>açık fırsat yok</translation>
    </message>
    <message>
        <source>weighted: %1</source>
        <translation>ağırlıklı: %1</translation>
    </message>
    <message>
        <source>nobody is waiting</source>
        <translation>bekleyen yok</translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n dakika</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n saat</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n gün</numerusform>
        </translation>
    </message>
    <message>
        <source>the longest for %1</source>
        <translation>en uzun bekleme: %1</translation>
    </message>
    <message>
        <source>Open deals by stage: %1</source>
        <translation>Aşamalara göre açık fırsatlar: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n deal(s)</source>
        <translation>
            <numerusform>%n fırsat</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2%): %3. Click to list them in Deals.</source>
        <translation>%1 (%%2): %3. Fırsatlar&apos;da listelemek için tıklayın.</translation>
    </message>
    <message>
        <source>under a minute</source>
        <translation>bir dakikadan az</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>%1 cannot be imported: %2</source>
        <translation>%1 içe aktarılamıyor: %2</translation>
    </message>
    <message>
        <source>%1 is too large to import (at most %2 MB).</source>
        <translation>%1 içe aktarmak için çok büyük (en çok %2 MB).</translation>
    </message>
    <message>
        <source>%1 new, %2 updated, %3 skipped, %4 with problems.</source>
        <translation>%1 yeni, %2 güncellendi, %3 atlandı, %4 sorunlu.</translation>
    </message>
    <message>
        <source>%1 rows to import, %2 columns. Check the fields of the columns and the preview.</source>
        <translation>İçe aktarılacak %1 satır, %2 sütun. Sütunların alanlarını ve önizlemeyi kontrol edin.</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>%1 içe aktarılmadı: %2</translation>
    </message>
    <message>
        <source>%1 was not saved: %2</source>
        <translation>%1 kaydedilmedi: %2</translation>
    </message>
    <message>
        <source>-report.csv</source>
        <translation>-rapor.csv</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tüm dosyalar (*)</translation>
    </message>
    <message>
        <source>CSV files (*.csv *.txt)</source>
        <translation>CSV dosyaları (*.csv *.txt)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV dosyaları (*.csv)</translation>
    </message>
    <message>
        <source>Cancel import</source>
        <translation>İçe aktarmayı iptal et</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 okunamıyor: %2</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>Dosya seç…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Kapat</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Sütun</translation>
    </message>
    <message>
        <source>Columns of the file and their fields</source>
        <translation>Dosyanın sütunları ve alanları</translation>
    </message>
    <message>
        <source>Columns of the file</source>
        <translation>Dosyanın sütunları</translation>
    </message>
    <message>
        <source>Comma ,</source>
        <translation>Virgül ,</translation>
    </message>
    <message>
        <source>Create a new record anyway</source>
        <translation>Yine de yeni kayıt oluştur</translation>
    </message>
    <message>
        <source>Custom field “%1”</source>
        <translation>Özel alan “%1”</translation>
    </message>
    <message>
        <source>Each row&apos;s outcome (new, updated, skipped and why) as a CSV file</source>
        <translation>Her satırın sonucu (yeni, güncellendi, atlandı ve nedeni) CSV dosyası olarak</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>Kodlama</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>Kodlama:</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>Örnek</translation>
    </message>
    <message>
        <source>Field of column %1</source>
        <translation>%1 sütununun alanı</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Alan</translation>
    </message>
    <message>
        <source>Import finished: %1 Save the report to see each row&apos;s outcome.</source>
        <translation>İçe aktarma bitti: %1 Her satırın sonucunu görmek için raporu kaydedin.</translation>
    </message>
    <message>
        <source>Import progress</source>
        <translation>İçe aktarma ilerlemesi</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>İçe aktar</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>%1 içe aktarılıyor…</translation>
    </message>
    <message>
        <source>Importing: %1 of %2 rows (%3 new, %4 updated, %5 skipped, %6 with problems)…</source>
        <translation>İçe aktarılıyor: %1 / %2 satır (%3 yeni, %4 güncellendi, %5 atlandı, %6 sorunlu)…</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Satır</translation>
    </message>
    <message>
        <source>No file chosen: a CSV file saved by Excel, LibreOffice or another program</source>
        <translation>Dosya seçilmedi: Excel, LibreOffice ya da başka bir programın kaydettiği bir CSV dosyası</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Önizleme</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Sorunlar</translation>
    </message>
    <message>
        <source>Report saved to %1.</source>
        <translation>Rapor %1 konumuna kaydedildi.</translation>
    </message>
    <message>
        <source>Save report…</source>
        <translation>Raporu kaydet…</translation>
    </message>
    <message>
        <source>Save the import report</source>
        <translation>İçe aktarma raporunu kaydet</translation>
    </message>
    <message>
        <source>Semicolon ;</source>
        <translation>Noktalı virgül ;</translation>
    </message>
    <message>
        <source>Separator</source>
        <translation>Ayırıcı</translation>
    </message>
    <message>
        <source>Separator:</source>
        <translation>Ayırıcı:</translation>
    </message>
    <message>
        <source>Skip the row (keep the stored record)</source>
        <translation>Satırı atla (kayıtlı kaydı koru)</translation>
    </message>
    <message>
        <source>Stop after the rows being written: those saved until then stay</source>
        <translation>Yazılmakta olan satırlardan sonra dur: o ana kadar kaydedilenler kalır</translation>
    </message>
    <message>
        <source>Stop the import</source>
        <translation>İçe aktarmayı durdur</translation>
    </message>
    <message>
        <source>Stop the import?</source>
        <translation>İçe aktarma durdurulsun mu?</translation>
    </message>
    <message>
        <source>Stopped at Cancel after %1 of %2 rows: %3 The rows written until then stay.</source>
        <translation>İptal ile %1 / %2 satırdan sonra durdu: %3 O ana kadar yazılan satırlar kalır.</translation>
    </message>
    <message>
        <source>Stopping after the rows being written…</source>
        <translation>Yazılmakta olan satırlardan sonra duruluyor…</translation>
    </message>
    <message>
        <source>Tab</source>
        <translation>Sekme</translation>
    </message>
    <message>
        <source>The first %1 rows as they would be imported: no problem found.</source>
        <translation>İlk %1 satır içe aktarılacağı gibi: sorun bulunmadı.</translation>
    </message>
    <message>
        <source>The first %1 rows as they would be imported: %2 would be left out, each with its problem.</source>
        <translation>İlk %1 satır içe aktarılacağı gibi: %2 satır dışarıda kalacak, her biri sorunuyla.</translation>
    </message>
    <message>
        <source>The first rows as they would be imported</source>
        <translation>İçe aktarılacağı gibi ilk satırlar</translation>
    </message>
    <message>
        <source>The rows written until now stay; the rest of the file is not imported.</source>
        <translation>Şimdiye kadar yazılan satırlar kalır; dosyanın geri kalanı içe aktarılmaz.</translation>
    </message>
    <message>
        <source>UTF-8</source>
        <translation>UTF-8</translation>
    </message>
    <message>
        <source>Update the stored record with the row&apos;s values</source>
        <translation>Kayıtlı kaydı satırın değerleriyle güncelle</translation>
    </message>
    <message>
        <source>Windows-1254 (Turkish)</source>
        <translation>Windows-1254 (Türkçe)</translation>
    </message>
    <message>
        <source>— leave out —</source>
        <translation>— dışarıda bırak —</translation>
    </message>
</context>
</TS>
