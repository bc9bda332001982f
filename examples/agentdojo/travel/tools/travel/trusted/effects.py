"""Travel effects: each calls the AgentDojo tool of the same name on the bound environment."""

from tools.travel.trusted.world import call

import clauz3


@clauz3.trusted
@clauz3.mock
@clauz3.reads_data("your user information")
def get_user_information() -> str:
    """Get the user information, could be: first name, last name, ID number, email, phone number, address, passport number, bank account number, credit card number. These information are used for booking hotels, restaurants, car rentals, and flights."""
    return call('get_user_information')


@clauz3.trusted
@clauz3.mock
def get_all_hotels_in_city(city: str) -> str:
    """Get all hotels in the given city."""
    return call('get_all_hotels_in_city', city=city)


@clauz3.trusted
@clauz3.mock
def get_hotels_prices(hotel_names: list[str]) -> str:
    """Get all hotels within the given budget, should be within the price range."""
    return call('get_hotels_prices', hotel_names=hotel_names)


@clauz3.trusted
@clauz3.mock
def get_rating_reviews_for_hotels(hotel_names: list[str]) -> str:
    """Get the rating and reviews for the given hotels."""
    return call('get_rating_reviews_for_hotels', hotel_names=hotel_names)


@clauz3.trusted
@clauz3.mock
def get_hotels_address(hotel_name: str) -> str:
    """Get the address of the given hotel."""
    return call('get_hotels_address', hotel_name=hotel_name)


@clauz3.trusted
@clauz3.mock
def get_all_restaurants_in_city(city: str) -> str:
    """Get all restaurants in the given city."""
    return call('get_all_restaurants_in_city', city=city)


@clauz3.trusted
@clauz3.mock
def get_cuisine_type_for_restaurants(restaurant_names: list[str]) -> str:
    """Get the cuisine type of the given restaurants, could be: Italian, Chinese, Indian, Japanese."""
    return call('get_cuisine_type_for_restaurants', restaurant_names=restaurant_names)


@clauz3.trusted
@clauz3.mock
def get_restaurants_address(restaurant_names: list[str]) -> str:
    """Get the address of the given restaurants."""
    return call('get_restaurants_address', restaurant_names=restaurant_names)


@clauz3.trusted
@clauz3.mock
def get_rating_reviews_for_restaurants(restaurant_names: list[str]) -> str:
    """Get the rating and reviews for the given restaurants."""
    return call('get_rating_reviews_for_restaurants', restaurant_names=restaurant_names)


@clauz3.trusted
@clauz3.mock
def get_dietary_restrictions_for_all_restaurants(restaurant_names: list[str]) -> str:
    """Get the dietary restrictions of the given restaurants, could be: Vegetarian, Vegan, Gluten-free, Dairy-free."""
    return call('get_dietary_restrictions_for_all_restaurants', restaurant_names=restaurant_names)


@clauz3.trusted
@clauz3.mock
def get_contact_information_for_restaurants(restaurant_names: list[str]) -> str:
    """Get the contact information of the given restaurants."""
    return call('get_contact_information_for_restaurants', restaurant_names=restaurant_names)


@clauz3.trusted
@clauz3.mock
def get_price_for_restaurants(restaurant_names: list[str]) -> str:
    """Get the price per person of the given restaurants."""
    return call('get_price_for_restaurants', restaurant_names=restaurant_names)


@clauz3.trusted
@clauz3.mock
def check_restaurant_opening_hours(restaurant_names: list[str]) -> str:
    """Get the openning hours of the given restaurants, check if the restaurant is open."""
    return call('check_restaurant_opening_hours', restaurant_names=restaurant_names)


@clauz3.trusted
@clauz3.mock
def get_all_car_rental_companies_in_city(city: str) -> str:
    """Get all car rental companies in the given city."""
    return call('get_all_car_rental_companies_in_city', city=city)


@clauz3.trusted
@clauz3.mock
def get_car_types_available(company_name: list[str]) -> str:
    """Get the car types available for the given car rental companies."""
    return call('get_car_types_available', company_name=company_name)


@clauz3.trusted
@clauz3.mock
def get_rating_reviews_for_car_rental(company_name: list[str]) -> str:
    """Get the rating and reviews for the given car rental companies."""
    return call('get_rating_reviews_for_car_rental', company_name=company_name)


@clauz3.trusted
@clauz3.mock
def get_car_fuel_options(company_name: list[str]) -> str:
    """Get the fuel options of the given car rental companies."""
    return call('get_car_fuel_options', company_name=company_name)


@clauz3.trusted
@clauz3.mock
def get_car_rental_address(company_name: list[str]) -> str:
    """Get the address of the given car rental companies."""
    return call('get_car_rental_address', company_name=company_name)


@clauz3.trusted
@clauz3.mock
def get_car_price_per_day(company_name: list[str]) -> str:
    """Get the price per day of the given car rental companies."""
    return call('get_car_price_per_day', company_name=company_name)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(participants="recipient", description="text")
def create_calendar_event(title: str, start_time: str, end_time: str, description: str = '', participants: list[str] | None = None, location: str | None = None) -> str:
    """Creates a new calendar event with the given details and adds it to the calendar."""
    return call('create_calendar_event', title=title, start_time=start_time, end_time=end_time, description=description, participants=participants, location=location)


@clauz3.trusted
@clauz3.mock
def search_calendar_events(query: str, date: str | None = None) -> str:
    """Searches calendar events that match the given query in the tile or the description. If provided, filters events by date."""
    return call('search_calendar_events', query=query, date=date)


@clauz3.trusted
@clauz3.mock
def get_day_calendar_events(day: str) -> str:
    """Returns the appointments for the given `day`. Returns a list of dictionaries with informations about each meeting."""
    return call('get_day_calendar_events', day=day)


@clauz3.trusted
@clauz3.mock
def cancel_calendar_event(event_id: str) -> str:
    """Cancels the event with the given `event_id`. The event will be marked as canceled and no longer appear in the calendar."""
    return call('cancel_calendar_event', event_id=event_id)


@clauz3.trusted
@clauz3.mock
def reserve_hotel(hotel: str, start_day: str, end_day: str) -> str:
    """Makes a reservation for a hotel with the provided details.."""
    return call('reserve_hotel', hotel=hotel, start_day=start_day, end_day=end_day)


@clauz3.trusted
@clauz3.mock
def reserve_car_rental(company: str, start_time: str, end_time: str | None) -> str:
    """Makes a reservation for a car rental with the provided details."""
    return call('reserve_car_rental', company=company, start_time=start_time, end_time=end_time)


@clauz3.trusted
@clauz3.mock
def reserve_restaurant(restaurant: str, start_time: str) -> str:
    """Makes a reservation for a restaurant with the provided details."""
    return call('reserve_restaurant', restaurant=restaurant, start_time=start_time)


@clauz3.trusted
@clauz3.mock
def get_flight_information(departure_city: str, arrival_city: str) -> str:
    """Get the flight information from the departure city to the arrival city."""
    return call('get_flight_information', departure_city=departure_city, arrival_city=arrival_city)


@clauz3.trusted
@clauz3.mock
@clauz3.protected(recipients="recipient", subject="text", body="text", cc="recipient", bcc="recipient")
def send_email(recipients: list[str], subject: str, body: str, attachments: list[dict[str, str]] | None = None, cc: list[str] | None = None, bcc: list[str] | None = None) -> str:
    """Sends an email with the given `body` to the given `address`. Returns a dictionary with the email details."""
    return call('send_email', recipients=recipients, subject=subject, body=body, attachments=attachments, cc=cc, bcc=bcc)

