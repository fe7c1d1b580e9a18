//! Tokens: one-time document access tokens (`access_tokens`), admin access tokens of the
//! legacy mode (`admin_tokens`) and the JWT ids seen within the leeway (`seen_jtis`), all kept
//! by hash or id until they expire.

use super::Store;

impl Store {
    /// Stores an access token (by hash) for `user` in `document`.
    pub async fn insert_access_token(
        &self,
        hash: &str,
        document: &str,
        user: &str,
        expires: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO access_tokens (hash, document_id, user_id, expires) VALUES ($1, $2, $3, $4)",
        )
        .bind(hash)
        .bind(document)
        .bind(user)
        .bind(expires)
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Consumes an unused, unexpired access token: `(document, user)`, or `None` when it is
    /// unknown, used or expired. One statement, so two racing uses cannot both succeed.
    pub async fn consume_access_token(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<(String, String)>, sqlx::Error> {
        sqlx::query_as(
            "UPDATE access_tokens SET used = 1 WHERE hash = $1 AND used = 0 AND expires > $2
             RETURNING document_id, user_id",
        )
        .bind(hash)
        .bind(now)
        .fetch_optional(&self.db)
        .await
    }

    /// Records a JWT id; false when it was already seen (a replay).
    pub async fn remember_jti(
        &self,
        client: &str,
        jti: &str,
        expires: i64,
    ) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "INSERT INTO seen_jtis (client_id, jti, expires) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(client)
        .bind(jti)
        .bind(expires)
        .execute(&self.db)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Stores an admin access token by hash.
    pub async fn insert_admin_token(
        &self,
        hash: &str,
        client: &str,
        expires: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("INSERT INTO admin_tokens (hash, client_id, expires) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(client)
            .bind(expires)
            .execute(&self.db)
            .await?;
        Ok(())
    }

    /// The client of an unexpired admin token.
    pub async fn admin_token_client(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<String>, sqlx::Error> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT client_id FROM admin_tokens WHERE hash = $1 AND expires > $2")
                .bind(hash)
                .bind(now)
                .fetch_optional(&self.db)
                .await?;
        Ok(row.map(|r| r.0))
    }

    /// Removes the expired tokens and JWT ids (see [`Store::expire`]).
    pub(super) async fn expire_tokens(&self, now: i64) -> Result<(), sqlx::Error> {
        for sql in [
            "DELETE FROM access_tokens WHERE expires <= $1",
            "DELETE FROM seen_jtis WHERE expires <= $1",
            "DELETE FROM admin_tokens WHERE expires <= $1",
        ] {
            sqlx::query(sql).bind(now).execute(&self.db).await?;
        }
        Ok(())
    }
}
