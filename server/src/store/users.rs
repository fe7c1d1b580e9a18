//! The `users` table: the users of each client as the partner last sent them, keyed by the
//! partner's id (`userId`) and given an id of the service's own (`userIdSD`).

use sqlx::Row;
use sqlx::any::AnyRow;

use super::Store;

/// A user of a client, as the partner last sent it.
#[derive(Debug, Clone)]
pub struct User {
    /// Id inside the service (`userIdSD`).
    pub id: String,
    /// Id in the partner system (`userId`).
    pub partner_id: String,
    /// E-mail.
    pub email: String,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
    /// Company.
    pub company: String,
    /// Language code (`en_EN` when never sent).
    pub language: String,
}

/// The user fields a create, open or import call sends.
#[derive(Debug, Clone, Default)]
pub struct UserInput {
    /// `userId`.
    pub partner_id: String,
    /// `email`.
    pub email: String,
    /// `firstname`.
    pub firstname: String,
    /// `lastname`.
    pub lastname: String,
    /// `company`.
    pub company: String,
    /// `language`, when sent (some payloads omit it; the stored one is kept then).
    pub language: Option<String>,
}

fn user_from(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        partner_id: row.try_get("partner_id")?,
        email: row.try_get("email")?,
        firstname: row.try_get("firstname")?,
        lastname: row.try_get("lastname")?,
        company: row.try_get("company")?,
        language: row.try_get("language")?,
    })
}

impl Store {
    /// Creates or overwrites the user `input.partner_id` of `client` (the spec: names, company,
    /// e-mail overwritten; the id never changes; the language only when sent).
    pub async fn upsert_user(&self, client: &str, input: &UserInput) -> Result<User, sqlx::Error> {
        let id = crate::ids::new_user_id();
        sqlx::query(
            "INSERT INTO users (id, client_id, partner_id, email, firstname, lastname, company, language)
             VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8, 'en_EN'))
             ON CONFLICT (client_id, partner_id) DO UPDATE SET
               email = excluded.email, firstname = excluded.firstname,
               lastname = excluded.lastname, company = excluded.company,
               language = COALESCE($9, users.language)",
        )
        .bind(&id)
        .bind(client)
        .bind(&input.partner_id)
        .bind(&input.email)
        .bind(&input.firstname)
        .bind(&input.lastname)
        .bind(&input.company)
        .bind(&input.language)
        .bind(&input.language)
        .execute(&self.db)
        .await?;
        match self.user(client, &input.partner_id).await? {
            Some(u) => Ok(u),
            None => Err(sqlx::Error::RowNotFound),
        }
    }

    /// The user with partner id `partner_id`.
    pub async fn user(&self, client: &str, partner_id: &str) -> Result<Option<User>, sqlx::Error> {
        sqlx::query("SELECT * FROM users WHERE client_id = $1 AND partner_id = $2")
            .bind(client)
            .bind(partner_id)
            .fetch_optional(&self.db)
            .await?
            .as_ref()
            .map(user_from)
            .transpose()
    }

    /// The user with service id `id`.
    pub async fn user_by_sd_id(&self, client: &str, id: &str) -> Result<Option<User>, sqlx::Error> {
        sqlx::query("SELECT * FROM users WHERE client_id = $1 AND id = $2")
            .bind(client)
            .bind(id)
            .fetch_optional(&self.db)
            .await?
            .as_ref()
            .map(user_from)
            .transpose()
    }
}
