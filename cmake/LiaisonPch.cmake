# Precompiled Qt headers for the libraries: the Qt headers dominate compile time, and CI builds the
# tree twice (normal and sanitizer) on two cores. LIAISON_PCH=OFF turns them off.
option(LIAISON_PCH "Precompile the common Qt headers" ON)

set(LIAISON_PCH_CORE
    <QByteArray> <QDateTime> <QHash> <QJsonArray> <QJsonDocument> <QJsonObject> <QJsonValue> <QList>
    <QObject> <QString> <QStringList> <QVariant> <QVector> <optional> <memory> <vector>)
set(LIAISON_PCH_SQL <QSqlDatabase> <QSqlError> <QSqlQuery>)
set(LIAISON_PCH_NETWORK <QHostAddress> <QNetworkAccessManager> <QNetworkReply> <QSslConfiguration> <QSslSocket>
    <QTcpServer> <QTcpSocket>)
set(LIAISON_PCH_WIDGETS <QAbstractItemModel> <QComboBox> <QDialog> <QDialogButtonBox> <QFormLayout> <QHBoxLayout>
    <QLabel> <QLineEdit> <QListWidget> <QMessageBox> <QPushButton> <QTableView> <QTimer> <QVBoxLayout> <QWidget>)

function(liaison_pch target)
    if(LIAISON_PCH)
        target_precompile_headers(${target} PRIVATE ${ARGN})
    endif()
endfunction()

# The tests reuse a precompiled header instead of building one each: REUSE_FROM needs the same
# compile definitions, so tests share one per kind of library they link (see tests/CMakeLists.txt).
function(liaison_pch_reuse target from)
    if(LIAISON_PCH)
        target_precompile_headers(${target} REUSE_FROM ${from})
    endif()
endfunction()
